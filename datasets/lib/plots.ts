/**
 * Plots a person wants to look at, drawn as SVG and rasterised to PNG with sharp:
 * a confusion matrix, training curves, and a photo's mistakes drawn over it.
 */
import sharp from 'sharp';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

/** Confusion matrix heat map: rows truth, columns prediction, cells shaded by row share. */
export function confusionSvg(classes: readonly string[], counts: readonly number[][], title: string): string {
  const cell = 14;
  const margin = 60;
  const size = margin + classes.length * cell + 10;
  const parts: string[] = [];
  parts.push(`<rect width="${size}" height="${size + 20}" fill="white"/>`);
  parts.push(`<text x="4" y="14" font-size="12" font-family="sans-serif">${esc(title)} (rows: truth, columns: prediction)</text>`);
  classes.forEach((name, i) => {
    parts.push(`<text x="${margin - 4}" y="${margin + 20 + i * cell + cell - 3}" font-size="9" text-anchor="end" font-family="sans-serif">${esc(name)}</text>`);
    parts.push(`<text transform="translate(${margin + i * cell + cell - 3},${margin + 16}) rotate(-90)" font-size="9" font-family="sans-serif">${esc(name)}</text>`);
  });
  counts.forEach((row, i) => {
    const total = row.reduce((a, b) => a + b, 0) || 1;
    row.forEach((n, j) => {
      if (n === 0) return;
      const share = n / total;
      const colour = i === j ? `rgba(0,120,0,${0.15 + 0.85 * share})` : `rgba(200,0,0,${0.25 + 0.75 * share})`;
      parts.push(`<rect x="${margin + j * cell}" y="${margin + 20 + i * cell}" width="${cell - 1}" height="${cell - 1}" fill="${colour}"><title>${esc(classes[i])}→${esc(classes[j])}: ${n}</title></rect>`);
    });
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size + 20}">${parts.join('')}</svg>`;
}

/** Line chart of several series over epochs (values 0..1 except loss, drawn on its own scale). */
export function curvesSvg(series: Record<string, number[]>, title: string): string {
  const w = 640;
  const h = 360;
  const m = { l: 50, r: 150, t: 30, b: 40 };
  const names = Object.keys(series);
  const n = Math.max(1, ...names.map((k) => series[k].length));
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd'];
  const x = (i: number) => m.l + ((w - m.l - m.r) * i) / Math.max(1, n - 1);
  const parts: string[] = [`<rect width="${w}" height="${h}" fill="white"/>`, `<text x="${m.l}" y="18" font-size="13" font-family="sans-serif">${esc(title)}</text>`];
  for (let k = 0; k <= 4; k++) {
    const yy = h - m.b - ((h - m.t - m.b) * k) / 4;
    parts.push(`<line x1="${m.l}" x2="${w - m.r}" y1="${yy}" y2="${yy}" stroke="#ddd"/><text x="${m.l - 6}" y="${yy + 4}" font-size="10" text-anchor="end" font-family="sans-serif">${(k / 4).toFixed(2)}</text>`);
  }
  parts.push(`<text x="${(w - m.r + m.l) / 2}" y="${h - 8}" font-size="11" text-anchor="middle" font-family="sans-serif">epoch</text>`);
  names.forEach((name, s) => {
    const values = series[name];
    const max = name.includes('loss') ? Math.max(...values, 1e-6) : 1;
    const pts = values.map((v, i) => `${x(i)},${h - m.b - ((h - m.t - m.b) * v) / max}`).join(' ');
    const colour = colours[s % colours.length];
    parts.push(`<polyline points="${pts}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    const label = name.includes('loss') ? `${name} (÷${max.toFixed(2)})` : name;
    parts.push(`<text x="${w - m.r + 8}" y="${m.t + 16 * s + 10}" font-size="11" fill="${colour}" font-family="sans-serif">${esc(label)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`;
}

/** Writes an SVG string as PNG. */
export async function writeSvgAsPng(svg: string, file: string): Promise<void> {
  await sharp(Buffer.from(svg)).png().toFile(file);
}

/** A reported card as the mistakes overlay draws it: its outline, what it was read as, and whether it matched a label. */
export interface DrawnPrediction {
  corners: ReadonlyArray<readonly [number, number]>;
  label: string;
  confidence: number;
  matched: boolean;
}

/**
 * A photo's mistakes as an SVG layer of its size (labels' pixels): labelled cards found in thin
 * green, missed in thick red (with their label); reported cards matching a label in dashed cyan,
 * matching none in dashed magenta; each reported card with what it was read as and how surely.
 */
export function mistakesSvg(width: number, height: number, labels: ReadonlyArray<{ xmin: number; ymin: number; xmax: number; ymax: number; label: string }>, found: ReadonlySet<number>, predictions: readonly DrawnPrediction[]): string {
  const font = Math.max(10, Math.round(Math.min(width, height) / 36));
  const parts: string[] = [];
  labels.forEach((box, i) => {
    const hit = found.has(i);
    parts.push(`<rect x="${box.xmin}" y="${box.ymin}" width="${box.xmax - box.xmin}" height="${box.ymax - box.ymin}" fill="none" stroke="${hit ? 'lime' : 'red'}" stroke-width="${hit ? 1 : 3}"/>`);
    if (!hit) parts.push(`<text x="${box.xmin + 2}" y="${box.ymax - 4}" fill="red" font-size="${font}" font-family="sans-serif">${esc(box.label)}</text>`);
  });
  for (const p of predictions) {
    const points = p.corners.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
    const cx = p.corners.reduce((sum, [x]) => sum + x, 0) / p.corners.length;
    const cy = p.corners.reduce((sum, [, y]) => sum + y, 0) / p.corners.length;
    const colour = p.matched ? 'cyan' : 'magenta';
    parts.push(`<polygon points="${points}" fill="none" stroke="${colour}" stroke-width="2" stroke-dasharray="6 3"/>`);
    parts.push(`<text x="${cx.toFixed(1)}" y="${cy.toFixed(1)}" fill="yellow" stroke="black" stroke-width="0.5" font-size="${font}" font-family="sans-serif">${esc(p.label)} ${p.confidence.toFixed(2)}</text>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

/** Writes `image` (encoded, turned upright by its EXIF orientation) scaled to `width` x `height` with `svg` over it, as PNG. */
export async function writeOverlayPng(image: Uint8Array, width: number, height: number, svg: string, file: string): Promise<void> {
  await sharp(image).rotate().resize(width, height, { fit: 'fill' }).composite([{ input: Buffer.from(svg) }]).png().toFile(file);
}
