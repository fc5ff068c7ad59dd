/**
 * npm run record:observations -- --out FILE [--players N] [--hands K] [--seed S]
 *   [--every E | --pace live] [--camera top|oblique] [--art DIR]
 *
 * Plays simulated hands through the real recogniser (in this process, the server's settings:
 * classical localiser, live confidence floor, backs enrolled from the first frame, tracking on)
 * and writes what it saw on every E-th frame (default 2: about what one worker keeps up with at
 * 30 fps) to a recording, each hand's truth after its last frame (server/tables/recording.ts).
 * With `--pace live` it keeps the frames a live server would instead: the 30 fps camera runs on
 * while a frame is recognised, and the first frame after the recogniser is free is the next one
 * read (the rest are dropped), so busy moments (several hands over the table) lose frames as
 * they do live. Which frames survive then depends on this machine's speed at the time.
 * Then `npm run bench:referee -- --observations FILE` referees it again in seconds, so the
 * tracker can be tuned on real recogniser output. About 10 minutes for 2 hands of 3 players on
 * this machine.
 */
import { parseArgs } from 'node:util';
import { positiveInt as positiveIntArg } from './args';
import { createSimTable } from '../sim/live';
import { DEFAULT_TRACKER_TUNING } from '../tracker/tracker';
import { liveModelsFromEnv } from '../plugins/config';
import { createRecognizer } from '../vision/index';
import { cropQuad } from '../tables/crop';
import { LivePacer, RecordingWriter } from '../tables/recording';
import { simCalibration } from '../tables/sim-calibration';
import { backViews } from '../tables/sim-feed';

function usage(message: string): never {
  console.error(`record:observations: ${message}\nusage: npm run record:observations -- --out FILE [--players N] [--hands K] [--seed S] [--every E | --pace live] [--camera top|oblique] [--art DIR]`);
  process.exit(2);
}

const positiveInt = (value: string | undefined, name: string, fallback: number): number => positiveIntArg(value, name, fallback, usage);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      players: { type: 'string' },
      hands: { type: 'string' },
      seed: { type: 'string' },
      every: { type: 'string' },
      pace: { type: 'string' },
      camera: { type: 'string' },
      art: { type: 'string' },
    },
    strict: true,
  });
  if (!values.out) usage('--out FILE is required');
  const players = positiveInt(values.players, 'players', 3);
  if (players > 6 || players < 2) usage('--players must be 2 to 6');
  const hands = positiveInt(values.hands, 'hands', 2);
  const every = positiveInt(values.every, 'every', 2);
  if (values.pace !== undefined && values.pace !== 'live') usage('--pace must be live');
  if (values.pace !== undefined && values.every !== undefined) usage('--every and --pace live exclude each other');
  const paced = values.pace === 'live';
  const seed = Number(values.seed ?? 1);
  if (!Number.isFinite(seed)) usage('--seed must be a number');
  const camera = values.camera ?? 'top';
  if (camera !== 'top' && camera !== 'oblique') usage('--camera must be top or oblique');

  const sim = await createSimTable({ players, seed, fps: 30, camera, hands, ...(values.art ? { art: values.art } : {}) });
  const recognizer = await createRecognizer({ locatorModelDir: null, minConfidence: DEFAULT_TRACKER_TUNING.minConfidence, ...liveModelsFromEnv(), log: () => {} });
  const calibration = sim.camera ? simCalibration(sim.layout, sim.camera) : null;
  recognizer.setCalibration(calibration);
  const writer = new RecordingWriter(values.out, { seed, players: sim.players, variant: sim.variant, calibration });
  const log = (message: string) => console.error(`[record:observations] ${message}`);
  log(`${players} players, ${hands} hand(s), seed ${seed}, camera ${camera}, ${paced ? 'paced like a live server' : `every ${every} frame(s)`}, recogniser ${recognizer.backend} → ${values.out}`);
  const started = performance.now();
  let count = 0;
  let kept = 0;
  const pacer = new LivePacer();
  let enrolled = false;
  for await (const frame of sim) {
    if (!enrolled) {
      // The players show their backs: each deck's stock is in view on the first frame.
      for (const [deckId, corners] of backViews(frame.truth)) await recognizer.enrollBack(deckId, [{ kind: 'encoded', data: await cropQuad(frame.jpeg, corners) }]);
      enrolled = true;
    }
    const due = paced ? pacer.takes(frame.timeMs) : count % every === 0;
    count++;
    if (due || frame.lastOfHand) {
      const readStarted = performance.now();
      writer.frame(frame.handIndex, frame.frameIndex, frame.timeMs, await recognizer.recognize({ kind: 'encoded', data: frame.jpeg }, frame.timeMs));
      pacer.read(frame.timeMs, performance.now() - readStarted);
      kept++;
    }
    if (frame.lastOfHand) {
      writer.truth(frame.handIndex, frame.handTruth);
      log(`hand ${frame.handIndex} recorded (${kept} of ${count} frames, ${Math.round((performance.now() - started) / 1000)} s)`);
    }
  }
  await writer.close();
  recognizer.dispose();
  console.log(JSON.stringify({ recorded: values.out, players, hands, seed, ...(paced ? { pace: 'live' } : { every }), frames: count, kept, wallS: Math.round((performance.now() - started) / 100) / 10 }));
}

main().catch((error: Error) => {
  console.error(`record:observations failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
