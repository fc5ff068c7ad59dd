/**
 * `npm run trace -- IMAGE [--box X0,Y0,X1,Y1]`, or `npm run trace -- --misses OUT/predictions.jsonl --data DIR`
 * (either with `--index-model DIR` to trace another index-corner model)
 * What the recogniser makes of one image (no calibration, no tracking, as `npm run eval` reads
 * it), stage by stage: the classical localiser's outlines, the learned locator's (unrefined), the
 * outlines the reading starts from, every outline's reading (whole crop, and what its index corner
 * alone names), and the cards reported. With `--box`, only outlines whose centre lies in that box
 * (image pixels), to see why one card was missed or misread. One line per outline: its source,
 * corners, and reading. Ends with one JSON line: the cards reported in the box.
 *
 * With `--misses`, every labelled card an `npm run eval` run on DIR found no prediction for
 * (its OUT/predictions.jsonl) is looked at in turn: one line each (missLine) with how many
 * outlines were read in its box, how surely any of them read it, what else they read, and what
 * was reported there; a whole set's misses sorted into "never outlined", "never read right" and
 * "read right, then lost" in a few minutes.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createRecognizer, type TraceEvent } from '../../server/vision/index';
import { centreIn, cornersText, missLine, traceLines, type TraceBox, type TracedRead } from '../lib/trace';

interface TraceArgs {
  image: string;
  box: TraceBox;
  /** An eval's predictions.jsonl, and the folder of its images (`--misses`). */
  misses?: { predictions: string; data: string };
  /** The index-corner model's folder (`--index-model`; default the committed one). */
  indexModel?: string;
}

const USAGE = 'npm run trace -- IMAGE [--box X0,Y0,X1,Y1] [--index-model DIR]\n  or --misses OUT/predictions.jsonl --data DIR [--index-model DIR] (every card that eval missed)';

function parseArgs(argv: string[]): TraceArgs {
  let image = '';
  let box: TraceArgs['box'] = null;
  let predictions = '';
  let data = '';
  let indexModel: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--misses') predictions = argv[++i] ?? '';
    else if (argv[i] === '--index-model') indexModel = argv[++i];
    else if (argv[i] === '--data') data = argv[++i] ?? '';
    else if (argv[i] === '--box') {
      const values = (argv[++i] ?? '').split(',').map(Number);
      if (values.length !== 4 || !values.every(Number.isFinite)) throw new Error('--box needs X0,Y0,X1,Y1 (image pixels)');
      box = values as TraceArgs['box'];
    } else if (argv[i] === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else if (!image) image = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (predictions || data) {
    if (!predictions || !data || image) throw new Error(`--misses needs a predictions.jsonl and --data DIR, and no image: ${USAGE}`);
    return { image, box, misses: { predictions, data }, indexModel };
  }
  if (!image) throw new Error(`an image file is required: ${USAGE}`);
  return { image, box, indexModel };
}

/** One image's record in predictions.jsonl (see predictionRecord in datasets/lib/metrics.ts). */
interface PredictionRecord {
  file: string;
  width: number;
  labels: Array<{ label: string; box: [number, number, number, number]; prediction: number | null }>;
}

/** `--misses`: one line per labelled card the eval found no prediction for. */
async function traceMisses({ predictions, data }: { predictions: string; data: string }, indexModelDir?: string): Promise<void> {
  const records = (await fs.readFile(predictions, 'utf8'))
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as PredictionRecord);
  let reads: TracedRead[] = [];
  const recognizer = await createRecognizer({ tracking: false, indexModelDir, log: () => {}, trace: (event: TraceEvent) => (event.stage === 'read' ? reads.push(...event.cards) : undefined) });
  let missed = 0;
  try {
    for (const record of records) {
      const labels = record.labels.filter((label) => label.prediction === null);
      if (labels.length === 0) continue;
      reads = [];
      const result = await recognizer.recognize({ kind: 'encoded', data: new Uint8Array(await fs.readFile(path.join(data, record.file))) }, 0);
      // The labels' boxes are in labels.csv's pixels; the image may be another size.
      const scale = result.width / record.width;
      const reported = result.cards.map((card) => ({ corners: card.corners, name: card.kind === 'face' ? (card.code ?? 'face?') : card.kind, confidence: card.confidence }));
      for (const label of labels) {
        console.log(missLine(record.file, label.label, label.box.map((v) => v * scale) as [number, number, number, number], reads, reported));
        missed++;
      }
    }
  } finally {
    recognizer.dispose();
  }
  console.log(JSON.stringify({ predictions, missed }));
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.misses) return traceMisses(args.misses, args.indexModel);
  const data = new Uint8Array(await fs.readFile(args.image));
  const recognizer = await createRecognizer({ tracking: false, indexModelDir: args.indexModel, log: () => {}, trace: (event) => traceLines(event, args.box).forEach((line) => console.log(line)) });
  try {
    const result = await recognizer.recognize({ kind: 'encoded', data }, 0);
    const cards = result.cards.filter((card) => centreIn(card.corners, args.box));
    for (const card of cards) console.log(`card       ${cornersText(card.corners)}  ${card.kind === 'face' ? card.code ?? 'face?' : card.kind === 'back' ? `back${card.backId ? `:${card.backId}` : ''}` : card.kind} ${card.confidence.toFixed(2)}${card.visible ? `  shows ${cornersText(card.visible)}` : ''}`);
    console.log(JSON.stringify({ image: args.image, width: result.width, height: result.height, cards: cards.map((card) => ({ kind: card.kind, code: card.kind === 'face' ? card.code : undefined, confidence: Number(card.confidence.toFixed(3)), corners: card.corners.map(([x, y]) => [Math.round(x), Math.round(y)]) })) }));
  } finally {
    recognizer.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(`[trace] failed: ${(error as Error).message}`);
  process.exit(1);
});
