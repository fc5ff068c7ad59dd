/**
 * Stream overlay settings from URL parameters, so an OBS browser source is configured by its
 * URL alone: `?token=…&layout=bar&theme=dark&ticker=1&scale=1.25&totals=1`.
 */

/** Overlay layouts: a bar along the bottom, a column at the side, or a tiny corner box. */
export const OVERLAY_LAYOUTS = ['bar', 'column', 'corner'] as const;
export type OverlayLayout = (typeof OVERLAY_LAYOUTS)[number];

/** Colour themes; all keep the page background transparent. */
export const OVERLAY_THEMES = ['dark', 'light', 'felt'] as const;
export type OverlayTheme = (typeof OVERLAY_THEMES)[number];

/** Parsed overlay settings. */
export interface OverlayParams {
  layout: OverlayLayout;
  theme: OverlayTheme;
  /** Show the ticker of plays. */
  ticker: boolean;
  /** Show match totals beside the live counts. */
  totals: boolean;
  /** Size multiplier, 0.5..3. */
  scale: number;
  /** How many plays the ticker keeps, 1..20. */
  tickerLength: number;
}

const truthy = (value: string | null, fallback: boolean): boolean => {
  if (value === null) return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
};

/** Reads the settings; unknown or bad values fall back to the defaults (never throws). */
export function parseOverlayParams(search: URLSearchParams): OverlayParams {
  const layoutParam = search.get('layout');
  const themeParam = search.get('theme');
  const scaleParam = Number(search.get('scale'));
  const tickerLengthParam = Number(search.get('plays'));
  return {
    layout: (OVERLAY_LAYOUTS as readonly string[]).includes(layoutParam ?? '') ? (layoutParam as OverlayLayout) : 'bar',
    theme: (OVERLAY_THEMES as readonly string[]).includes(themeParam ?? '') ? (themeParam as OverlayTheme) : 'dark',
    ticker: truthy(search.get('ticker'), true),
    totals: truthy(search.get('totals'), true),
    scale: Number.isFinite(scaleParam) && scaleParam > 0 ? Math.min(3, Math.max(0.5, scaleParam)) : 1,
    tickerLength: Number.isInteger(tickerLengthParam) && tickerLengthParam > 0 ? Math.min(20, tickerLengthParam) : 6,
  };
}
