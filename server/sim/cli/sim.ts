/**
 * `npm run sim -- --players 4 --seed 7 --hands 1 --fps 15 --out DIR [--art DIR] [--camera oblique]`
 *
 * Plays simulated Nerts hands and writes, per hand, the rendered webcam frames (JPEG) and one
 * ground-truth JSON file: every frame's visible cards (4 image corners, visible fraction,
 * face/back, code, back design, owner, zone) plus the hand truth (plays, disputes, end, scores).
 * Deterministic for a seed. Progress goes to stderr; the last stdout line is a JSON summary.
 * Bad arguments: a message on stderr and exit code 2.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { isPresetName } from '../../game/variants';
import { createSimTable, simTableProblem, type SimFrame, type SimTableOptions } from '../live';

const USAGE = `usage: npm run sim -- --out DIR [--players 2-6] [--seed N] [--hands N] [--fps N]
       [--art DIR] [--camera top|oblique] [--width PX] [--height PX] [--variant PRESET]
       [--max-seconds S] [--no-render] [--skill 0..1] [--partners] [--jpeg-quality 1-100]`;

/** Parsed command line. */
interface SimArgs {
  options: SimTableOptions;
  out: string;
  maxSeconds: number | null;
}

function fail(message: string): never {
  process.stderr.write(`sim: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) fail(`--${name} must be a number, got "${value}"`);
  return n;
}

function parse(argv: string[]): SimArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        players: { type: 'string' },
        seed: { type: 'string' },
        hands: { type: 'string' },
        fps: { type: 'string' },
        out: { type: 'string' },
        art: { type: 'string' },
        camera: { type: 'string' },
        width: { type: 'string' },
        height: { type: 'string' },
        variant: { type: 'string' },
        'max-seconds': { type: 'string' },
        'no-render': { type: 'boolean' },
        skill: { type: 'string' },
        partners: { type: 'boolean' },
        'jpeg-quality': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const out = values.out;
  if (typeof out !== 'string' || out.length === 0) fail('--out DIR is required');
  const camera = values.camera;
  if (camera !== undefined && camera !== 'top' && camera !== 'oblique') fail('--camera must be top or oblique');
  const variant = values.variant;
  if (variant !== undefined && !isPresetName(variant)) fail(`unknown --variant "${String(variant)}"`);
  const count = parseNumber('players', values.players as string | undefined, 4);
  const skill = values.skill === undefined ? undefined : parseNumber('skill', values.skill as string, 0.6);
  if (skill !== undefined && !(skill >= 0 && skill <= 1)) fail('--skill must be in 0..1');
  // A plain count unless a knob needs per-player setups (same ids as the count form: p1, p2, …).
  const players: SimTableOptions['players'] =
    skill === undefined && values.partners !== true
      ? count
      : Number.isInteger(count) && count >= 2 && count <= 6
        ? Array.from({ length: count }, (_, i) => ({
            id: `p${i + 1}`,
            ...(skill !== undefined ? { skill } : {}),
            ...(values.partners === true ? { partner: { id: `p${i + 1}b`, ...(skill !== undefined ? { skill } : {}) } } : {}),
          }))
        : count;
  const options: SimTableOptions = {
    players,
    seed: parseNumber('seed', values.seed as string | undefined, 7),
    hands: parseNumber('hands', values.hands as string | undefined, 1),
    fps: parseNumber('fps', values.fps as string | undefined, 15),
    ...(values.art !== undefined ? { art: resolve(values.art as string) } : {}),
    ...(camera !== undefined ? { camera: camera as 'top' | 'oblique' } : {}),
    ...(values.width !== undefined ? { width: parseNumber('width', values.width as string, 1280) } : {}),
    ...(values.height !== undefined ? { height: parseNumber('height', values.height as string, 720) } : {}),
    ...(variant !== undefined ? { variant: variant as SimTableOptions['variant'] } : {}),
    render: values['no-render'] !== true,
  };
  if (values['jpeg-quality'] !== undefined) {
    const quality = parseNumber('jpeg-quality', values['jpeg-quality'] as string, 80);
    if (!(Number.isInteger(quality) && quality >= 1 && quality <= 100)) fail('--jpeg-quality must be an integer 1-100');
    options.jpegQuality = quality;
  }
  const problem = simTableProblem(options);
  if (problem) fail(problem);
  const maxSecondsRaw = values['max-seconds'] as string | undefined;
  const maxSeconds = maxSecondsRaw === undefined ? null : parseNumber('max-seconds', maxSecondsRaw, 0);
  if (maxSeconds !== null && !(maxSeconds > 0)) fail('--max-seconds must be positive');
  return { options, out: resolve(out), maxSeconds };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/** One frame's ground truth as written to disk (pixel values rounded to 0.1 px). */
function frameRecord(frame: SimFrame, file: string | null, withScene: boolean): unknown {
  return {
    index: frame.frameIndex,
    timeMs: Math.round(frame.handTimeMs * 10) / 10,
    ...(file ? { file } : {}),
    cards: frame.truth.map((c) => ({
      id: c.id,
      code: c.code,
      deckId: c.deckId,
      owner: c.owner,
      backDesign: c.backDesign,
      faceUp: c.faceUp,
      corners: c.corners.map(([x, y]) => [round1(x), round1(y)]),
      visibleFraction: Math.round(c.visibleFraction * 1000) / 1000,
      zone: c.zone,
      faceStyle: c.faceStyle,
    })),
    ...(withScene ? { scene: frame.scene } : {}),
  };
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const started = performance.now();
  let table;
  try {
    table = await createSimTable(args.options);
  } catch (error) {
    fail((error as Error).message);
  }
  const rendering = args.options.render !== false;
  const bar = new cliProgress.SingleBar({ format: 'hand {hand} |{bar}| {value}/{total} frames | {fps} fps', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 5000 }, cliProgress.Presets.shades_classic);
  const summaries: unknown[] = [];
  let totalFrames = 0;
  let writer: ReturnType<typeof createWriteStream> | null = null;
  let handDir = '';
  let framesInHand = 0;
  let handStarted = 0;

  const closeHand = async (frame: SimFrame): Promise<void> => {
    if (!writer) return;
    const w = writer;
    w.write(`\n],\n"hand": ${JSON.stringify(frame.handTruth)}\n}\n`);
    await new Promise<void>((done, failed) => w.end((error?: Error | null) => (error ? failed(error) : done())));
    writer = null;
    bar.stop();
    const t = frame.handTruth;
    summaries.push({
      hand: frame.handIndex,
      dir: handDir,
      frames: framesInHand,
      endReason: t.endReason,
      caller: t.caller,
      handSeconds: round1(t.endMs / 1000),
      plays: t.plays.length,
      disputes: t.disputes.length,
      scores: t.scores.nertz,
    });
  };

  for (;;) {
    const frame = await table.next();
    if (!frame) break;
    if (frame.frameIndex === 0) {
      handDir = join(args.out, `hand-${String(frame.handIndex).padStart(3, '0')}`);
      mkdirSync(handDir, { recursive: true });
      writer = createWriteStream(join(handDir, 'truth.json'));
      const hand = table.currentHand();
      const header = {
        format: 'nerts-sim-frames/1',
        seed: args.options.seed,
        handIndex: frame.handIndex,
        handSeed: hand?.seed,
        fps: args.options.fps,
        camera: table.camera,
        table: table.layout.table,
        seats: table.seats,
        players: table.players,
        decks: table.decks,
        rendered: rendering,
      };
      writer.write(`{"header": ${JSON.stringify(header)},\n"frames": [\n`);
      framesInHand = 0;
      handStarted = performance.now();
      const maxFrames = args.maxSeconds === null ? Infinity : Math.floor(args.maxSeconds * args.options.fps) + 1;
      const planned = Math.min(maxFrames, Math.floor((hand?.hand.timeline.durationMs ?? 0) / (1000 / args.options.fps)) + 1);
      bar.start(planned, 0, { hand: frame.handIndex, fps: '-' });
    }
    const file = rendering ? `frame-${String(frame.frameIndex).padStart(6, '0')}.jpg` : null;
    if (file) await writeFile(join(handDir, file), frame.jpeg);
    writer!.write(`${framesInHand > 0 ? ',\n' : ''}${JSON.stringify(frameRecord(frame, file, !rendering))}`);
    framesInHand++;
    totalFrames++;
    const elapsed = (performance.now() - handStarted) / 1000;
    bar.update(framesInHand, { hand: frame.handIndex, fps: (framesInHand / Math.max(elapsed, 1e-3)).toFixed(1) });
    const cut = args.maxSeconds !== null && frame.handTimeMs + 1000 / args.options.fps > args.maxSeconds * 1000;
    if (frame.lastOfHand || cut) {
      await closeHand(frame);
      if (!frame.lastOfHand) table.skipRestOfHand();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ out: args.out, hands: summaries, frames: totalFrames, seconds: round1(seconds) })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`sim: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
