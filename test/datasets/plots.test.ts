import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { mistakesSvg, writeOverlayPng } from '../../datasets/lib/plots';

describe('mistakesSvg (npm run eval, photos: OUT/mistakes/)', () => {
  const labels = [
    { xmin: 10, ymin: 10, xmax: 60, ymax: 80, label: 'KC' },
    { xmin: 100, ymin: 10, xmax: 150, ymax: 80, label: 'JD' },
  ];
  const square = (x: number): Array<[number, number]> => [[x, 12], [x + 48, 12], [x + 48, 78], [x, 78]];
  const predictions = [
    { corners: square(11), label: 'KC', confidence: 0.93, matched: true },
    { corners: square(160), label: 'back', confidence: 0.4, matched: false },
  ];
  it('draws found labels thin green, missed ones thick red with their label, and each reported card by whether it matched', () => {
    const svg = mistakesSvg(200, 100, labels, new Set([0]), predictions);
    expect(svg).toContain('width="200" height="100"');
    expect(svg).toContain('stroke="lime" stroke-width="1"');
    expect(svg).toContain('stroke="red" stroke-width="3"');
    expect(svg).toMatch(/fill="red"[^>]*>JD</);
    expect(svg).toMatch(/<polygon points="11\.0,12\.0 [^"]*" fill="none" stroke="cyan"/);
    expect(svg).toMatch(/<polygon points="160\.0,12\.0 [^"]*" fill="none" stroke="magenta"/);
    expect(svg).toContain('>back 0.40<');
  });
  it('escapes what it writes as text', () => {
    expect(mistakesSvg(50, 50, [{ xmin: 0, ymin: 0, xmax: 5, ymax: 5, label: '<b&>' }], new Set(), [])).toContain('&lt;b&amp;>');
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'plots-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('writes the photo at the labels size with the layer over it', async () => {
    const photo = await sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 40, g: 40, b: 40 } } }).jpeg().toBuffer();
    const file = path.join(dir, 'p.png');
    await writeOverlayPng(new Uint8Array(photo), 200, 100, mistakesSvg(200, 100, labels, new Set([0]), predictions), file);
    const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([200, 100]);
    // The missed JD's thick red left edge at x = 100.
    const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3));
    const [r, g, b] = at(100, 40);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(80);
    expect(b).toBeLessThan(80);
    expect(at(80, 95)).toEqual(at(5, 95));
  });
});
