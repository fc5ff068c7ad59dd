/**
 * Standings from the server's match history (GET /api/tables/:id/history.json): per match, the
 * hand-by-hand scores and running totals, and the chart geometry for them. Pure and defensive:
 * unexpected JSON gives an empty history rather than a crash.
 */

/** One scored hand: each player's (or team's) hand score and running total. */
export interface HandResult {
  hand: number;
  scores: Record<string, number>;
  totals: Record<string, number>;
  caller: string | null;
}

/** One match at the table. */
export interface MatchHistory {
  id: string;
  /** Score ids (players, or teams when partnered), in first-seen order. */
  ids: string[];
  hands: HandResult[];
  winner: string | null;
  target: number | null;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Reads one hand: `{ hand, scores|rows: [{ player|id|team, handScore, total }] , caller? }`. */
function readHand(raw: unknown, index: number, running: Record<string, number>, ids: string[]): HandResult | null {
  if (!isObject(raw)) return null;
  const rows = Array.isArray(raw.scores) ? raw.scores : Array.isArray(raw.rows) ? raw.rows : null;
  if (!rows) return null;
  const scores: Record<string, number> = {};
  const totals: Record<string, number> = {};
  for (const row of rows) {
    if (!isObject(row)) continue;
    const id = str(row.team) ?? str(row.player) ?? str(row.id);
    const score = num(row.handScore) ?? num(row.score);
    if (!id || score === null) continue;
    if (id in scores) continue; // partners share one team row
    if (!ids.includes(id)) ids.push(id);
    scores[id] = score;
    totals[id] = num(row.total) ?? (running[id] ?? 0) + score;
  }
  for (const id of ids) {
    if (!(id in totals)) totals[id] = running[id] ?? 0;
    running[id] = totals[id];
  }
  return { hand: num(raw.hand) ?? num(raw.number) ?? index + 1, scores, totals, caller: str(raw.caller) ?? str(raw.calledBy) };
}

/** Normalises history JSON (`{ matches: [...] }`, a bare array of matches, or one match) into matches. */
export function normalizeHistory(json: unknown): MatchHistory[] {
  let rawMatches: unknown[] = Array.isArray(json)
    ? json
    : isObject(json) && Array.isArray(json.matches)
      ? json.matches
      : isObject(json) && Array.isArray(json.hands)
        ? [json]
        : [];
  // A flat list of hands that name their match (`{ hands: [{ match, hand, scores }] }`) is grouped by match.
  if (isObject(json) && !Array.isArray(json.matches) && Array.isArray(json.hands)) {
    const hands = json.hands as unknown[];
    if (hands.some((hand) => isObject(hand) && num(hand.match) !== null)) {
      const groups = new Map<number, unknown[]>();
      for (const hand of hands) {
        const match = isObject(hand) ? num(hand.match) ?? 1 : 1;
        groups.set(match, [...(groups.get(match) ?? []), hand]);
      }
      rawMatches = [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([match, group]) => ({ id: String(match), hands: group, target: json.target }));
    }
  }
  const matches: MatchHistory[] = [];
  rawMatches.forEach((rawMatch, matchIndex) => {
    if (!isObject(rawMatch) || !Array.isArray(rawMatch.hands)) return;
    const ids: string[] = [];
    const running: Record<string, number> = {};
    const hands = rawMatch.hands
      .map((rawHand, index) => readHand(rawHand, index, running, ids))
      .filter((hand): hand is HandResult => hand !== null);
    matches.push({
      id: str(rawMatch.id) ?? String(num(rawMatch.id) ?? matchIndex + 1),
      ids,
      hands,
      winner: str(rawMatch.winner),
      target: num(rawMatch.target),
    });
  });
  return matches;
}

/** Chart geometry in SVG user units. */
export interface ChartLayout {
  width: number;
  height: number;
  padding: { left: number; right: number; top: number; bottom: number };
  minY: number;
  maxY: number;
  /** Hands on the x axis, 0 (start) .. handCount. */
  handCount: number;
}

/** Picks the y range so every total and the target line fit, with a little headroom. */
export function chartLayout(match: MatchHistory, target: number | null, width = 640, height = 300): ChartLayout {
  const values = [0, ...match.hands.flatMap((hand) => Object.values(hand.totals))];
  if (target !== null) values.push(target);
  const minY = Math.min(...values);
  const maxY = Math.max(...values);
  const span = Math.max(10, maxY - minY);
  return {
    width,
    height,
    padding: { left: 44, right: 16, top: 12, bottom: 32 },
    minY: Math.floor((minY - span * 0.05) / 10) * 10,
    maxY: Math.ceil((maxY + span * 0.05) / 10) * 10,
    handCount: Math.max(1, match.hands.length),
  };
}

/** x (hand index 0..handCount) and y (points) to SVG coordinates. */
export function chartPoint(layout: ChartLayout, handIndex: number, points: number): [number, number] {
  const { width, height, padding, minY, maxY, handCount } = layout;
  const x = padding.left + (handIndex / handCount) * (width - padding.left - padding.right);
  const y = padding.top + (1 - (points - minY) / (maxY - minY || 1)) * (height - padding.top - padding.bottom);
  return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
}

/** The SVG path of one id's running total, starting at 0 before the first hand. */
export function totalsPath(layout: ChartLayout, match: MatchHistory, id: string): string {
  const points: Array<[number, number]> = [chartPoint(layout, 0, 0)];
  match.hands.forEach((hand, index) => points.push(chartPoint(layout, index + 1, hand.totals[id] ?? 0)));
  return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${x},${y}`).join(' ');
}

/** Round y-axis tick values between minY and maxY (about five). */
export function yTicks(layout: ChartLayout): number[] {
  const span = layout.maxY - layout.minY;
  const rawStep = span / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rawStep || 1));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= rawStep) ?? rawStep;
  const ticks: number[] = [];
  for (let value = Math.ceil(layout.minY / step) * step; value <= layout.maxY; value += step) ticks.push(value);
  return ticks;
}
