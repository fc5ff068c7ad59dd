/**
 * `npm run bench:vision -- [--frames 60] [--seed 3] [--moving 1]`
 * Times the whole recogniser pipeline on 1280x720 rendered table frames (server/sim/render): a
 * cluttered random table where `--moving` cards move a little every frame, as in play. Reports
 * steady-state speed with tracking (only changed cards go through the CNN), without tracking,
 * and from JPEG bytes (decode included). Ends with one JSON line.
 */
import sharp from 'sharp';
import { randomScene } from '../../server/sim/render/random-scene';
import { createRenderer } from '../../server/sim/render/index';
import { createRecognizer, type CardRecognizer } from '../../server/vision/index';
import type { FrameInput } from '../../server/vision/types';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a number`);
  return n;
}

async function timeRun(recognizer: CardRecognizer, frames: FrameInput[]): Promise<{ msPerFrame: number; cards: number; stages: Record<string, number> }> {
  // One untimed warm-up frame (first predict compiles kernels).
  await recognizer.recognize(frames[0], 0);
  const stages: Record<string, number> = {};
  let cards = 0;
  const started = performance.now();
  for (let i = 0; i < frames.length; i++) {
    const result = await recognizer.recognize(frames[i], i * 33);
    cards += result.cards.length;
    for (const [k, v] of Object.entries(result.timingsMs ?? {})) stages[k] = (stages[k] ?? 0) + v / frames.length;
  }
  const msPerFrame = (performance.now() - started) / frames.length;
  for (const k of Object.keys(stages)) stages[k] = Number(stages[k].toFixed(2));
  return { msPerFrame, cards: cards / frames.length, stages };
}

async function main(): Promise<void> {
  const count = arg('frames', 60);
  const seed = arg('seed', 3);
  const moving = arg('moving', 1);
  const width = 1280;
  const height = 720;
  const renderer = await createRenderer({ seed, width, height, camera: 'top' });
  const scene = randomScene({ seed, maxHands: 0 });
  const rgbFrames: FrameInput[] = [];
  const jpegFrames: FrameInput[] = [];
  console.error(`[bench] rendering ${count} frames (${scene.cards.length} cards on the table, ${moving} moving)…`);
  for (let i = 0; i < count; i++) {
    // Move the top-most `moving` cards a few millimetres per frame.
    for (let m = 0; m < moving; m++) {
      const card = scene.cards[scene.cards.length - 1 - m];
      card.xMm += 4 * Math.cos(i / 5 + m);
      card.yMm += 4 * Math.sin(i / 5 + m);
    }
    const frame = await renderer.render(scene);
    const raw = await sharp(frame.jpeg).removeAlpha().raw().toBuffer();
    rgbFrames.push({ kind: 'rgb', data: new Uint8Array(raw.buffer, raw.byteOffset, raw.length), width, height });
    jpegFrames.push({ kind: 'encoded', data: new Uint8Array(frame.jpeg) });
  }
  const tracked = await createRecognizer({ tracking: true });
  const withTracking = await timeRun(tracked, rgbFrames);
  const fromJpeg = await timeRun(tracked, jpegFrames);
  tracked.dispose();
  const untracked = await createRecognizer({ tracking: false });
  const withoutTracking = await timeRun(untracked, rgbFrames.slice(0, Math.min(count, 15)));
  untracked.dispose();
  const summary = {
    frames: count,
    width,
    height,
    backend: tracked.backend,
    cardsPerFrame: Number(withTracking.cards.toFixed(1)),
    msPerFrame: Number(withTracking.msPerFrame.toFixed(1)),
    fps: Number((1000 / withTracking.msPerFrame).toFixed(1)),
    stagesMs: withTracking.stages,
    msPerFrameJpeg: Number(fromJpeg.msPerFrame.toFixed(1)),
    fpsJpeg: Number((1000 / fromJpeg.msPerFrame).toFixed(1)),
    msPerFrameNoTracking: Number(withoutTracking.msPerFrame.toFixed(1)),
    fpsNoTracking: Number((1000 / withoutTracking.msPerFrame).toFixed(1)),
    stagesNoTrackingMs: withoutTracking.stages,
  };
  console.log(JSON.stringify(summary));
}

main().catch((error: unknown) => {
  console.error(`[bench] failed: ${(error as Error).message}`);
  process.exit(1);
});
