/**
 * `npm run bench:render [-- --frames 60 --seed 1]`
 * Measures the renderer on one core: frames per second at 1280x720 (random 4-player Nerts
 * tables with hands, top and oblique cameras, textures already cached, JPEG included) and
 * dataset crops per second (render + decode + rectify). Final line: JSON.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { cropsFromFrame } from '../../../datasets/synth/generate';
import { createRenderer } from '../render/index';
import { randomScene } from '../render/random-scene';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { frames: { type: 'string', default: '60' }, seed: { type: 'string', default: '1' } } });
  const frames = Number(values.frames);
  const seed = Number(values.seed);
  if (!(frames > 0) || !Number.isFinite(seed)) throw new Error('--frames must be positive and --seed a number');
  // One libvips thread, so the number reflects a single core.
  sharp.concurrency(1);
  const table = { widthMm: 1200, heightMm: 800 };
  const scenes = Array.from({ length: 8 }, (_, k) => randomScene({ seed: seed * 100 + k, players: 4, table, maxHands: 2, timeMs: k * 33 }));
  const results: Record<string, number> = {};
  let cardsPerFrame = 0;
  for (const camera of ['top', 'oblique'] as const) {
    const renderer = await createRenderer({ seed, camera, table, width: 1280, height: 720 });
    for (const scene of scenes) await renderer.render(scene); // warm-up: rasterise art, JIT
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    for (let k = 0; k < frames; k++) {
      const frame = await renderer.render(scenes[k % scenes.length]);
      cardsPerFrame = Math.max(cardsPerFrame, frame.truth.length);
    }
    results[camera] = (frames * 1000) / (performance.now() - started);
    // CPU time of all threads (JS + libvips): frames/s one free core would give, robust to a busy machine.
    const cpu = process.cpuUsage(cpuStart);
    results[`${camera}Cpu`] = (frames * 1e6) / (cpu.user + cpu.system);
    console.log(`${camera}: ${results[camera].toFixed(1)} frames/s wall, ${results[`${camera}Cpu`].toFixed(1)} frames per CPU-second, at 1280x720`);
  }
  // Crops: the dataset path (render, decode JPEG, rectify faces, backs and corner indices).
  const renderer = await createRenderer({ seed, camera: 'oblique', table, width: 1280, height: 720 });
  for (const scene of scenes) await renderer.render(scene);
  let crops = 0;
  let cropMs = 0;
  const cropFrames = Math.max(4, Math.round(frames / 4));
  const started = performance.now();
  for (let k = 0; k < cropFrames; k++) {
    const scene = scenes[k % scenes.length];
    const frame = await renderer.renderDetailed(scene);
    const t0 = performance.now();
    const decoded = await sharp(frame.jpeg).raw().toBuffer();
    crops += cropsFromFrame({ width: 1280, height: 720, data: decoded }, frame, scene, { seed, frames: 0 }).length;
    cropMs += performance.now() - t0;
  }
  const totalMs = performance.now() - started;
  const framesPerSecond = (results.top + results.oblique) / 2;
  console.log(
    JSON.stringify({
      framesPerSecond: Math.round(framesPerSecond * 10) / 10,
      framesPerSecondTop: Math.round(results.top * 10) / 10,
      framesPerSecondOblique: Math.round(results.oblique * 10) / 10,
      framesPerCpuSecond: Math.round(((results.topCpu + results.obliqueCpu) / 2) * 10) / 10,
      loadAverage: Math.round(os.loadavg()[0] * 10) / 10,
      cropsPerSecond: Math.round((crops * 1000) / totalMs),
      cropsPerSecondExtractOnly: Math.round((crops * 1000) / cropMs),
      width: 1280,
      height: 720,
      maxVisibleCards: cardsPerFrame,
      frames,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(`bench:render: ${(error as Error).message}`);
  process.exit(1);
});
