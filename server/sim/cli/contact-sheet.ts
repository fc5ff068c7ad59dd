/**
 * `npm run contact-sheet -- --out FILE [--cols 3] [--rows 3] [--tile-width 640] [--seed 1]
 *  [--art DIR] [--frames-dir DIR]`
 * Renders a grid of random tables (several cameras, lights, surfaces, decks, hands) into one
 * JPEG, to check by eye that frames look like a webcam photo. --frames-dir also writes every
 * frame at full 1280x720 size.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp, { type OverlayOptions } from 'sharp';
import { presetCamera, randomCamera } from '../render/camera';
import { createRenderer } from '../render/index';
import { randomScene } from '../render/random-scene';
import { createRng } from '../render/rng';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'docs/contact-sheet.jpg' },
      cols: { type: 'string', default: '3' },
      rows: { type: 'string', default: '3' },
      'tile-width': { type: 'string', default: '640' },
      seed: { type: 'string', default: '1' },
      art: { type: 'string' },
      'frames-dir': { type: 'string' },
      quality: { type: 'string', default: '80' },
    },
  });
  const cols = Number(values.cols);
  const rows = Number(values.rows);
  const tileWidth = Number(values['tile-width']);
  const seed = Number(values.seed);
  if (![cols, rows, tileWidth, seed].every(Number.isFinite) || cols < 1 || rows < 1 || tileWidth < 64) {
    throw new Error('contact-sheet: --cols, --rows, --tile-width and --seed must be numbers (tile width >= 64)');
  }
  const width = 1280;
  const height = 720;
  const tileHeight = Math.round((tileWidth * height) / width);
  const tiles: OverlayOptions[] = [];
  if (values['frames-dir']) mkdirSync(values['frames-dir'], { recursive: true });
  for (let k = 0; k < cols * rows; k++) {
    const frameSeed = seed * 1000 + k;
    const scene = randomScene({ seed: frameSeed, players: 2 + (k % 3), maxHands: 2 });
    const rng = createRng(frameSeed);
    const camera = k % 3 === 0 ? presetCamera('top', width, height, scene.table) : k % 3 === 1 ? presetCamera('oblique', width, height, scene.table) : randomCamera(rng, width, height, scene.table);
    const renderer = await createRenderer({ seed: frameSeed, camera, width, height, artDir: values.art, table: scene.table });
    const frame = await renderer.render(scene);
    if (values['frames-dir']) writeFileSync(path.join(values['frames-dir'], `frame-${k}.jpg`), frame.jpeg);
    const tile = await sharp(frame.jpeg).resize(tileWidth, tileHeight).toBuffer();
    tiles.push({ input: tile, left: (k % cols) * tileWidth, top: Math.floor(k / cols) * tileHeight });
    console.log(`frame ${k}: ${renderer.look.surface.kind} surface, ${frame.truth.length} cards visible, decks ${scene.seats.map((s) => renderer.deckInfo(s.deckId).faces).join(' ')}`);
  }
  const sheet = await sharp({ create: { width: cols * tileWidth, height: rows * tileHeight, channels: 3, background: '#000000' } })
    .composite(tiles)
    .jpeg({ quality: Number(values.quality) })
    .toBuffer();
  mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
  writeFileSync(values.out, sheet);
  console.log(JSON.stringify({ out: values.out, frames: cols * rows, bytes: sheet.length }));
}

main().catch((error: unknown) => {
  console.error(`contact-sheet: ${(error as Error).message}`);
  process.exit(1);
});
