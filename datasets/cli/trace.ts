/**
 * `npm run trace -- IMAGE [--box X0,Y0,X1,Y1]`
 * What the recogniser makes of one image (no calibration, no tracking, as `npm run eval` reads
 * it), stage by stage: the classical localiser's outlines, the learned locator's (unrefined), the
 * outlines the reading starts from, every outline's reading (whole crop, and what its index corner
 * alone names), and the cards reported. With `--box`, only outlines whose centre lies in that box
 * (image pixels), to see why one card was missed or misread. One line per outline: its source,
 * corners, and reading. Ends with one JSON line: the cards reported in the box.
 */
import { promises as fs } from 'node:fs';
import { createRecognizer } from '../../server/vision/index';
import { centreIn, cornersText, traceLines, type TraceBox } from '../lib/trace';

interface TraceArgs {
  image: string;
  box: TraceBox;
}

function parseArgs(argv: string[]): TraceArgs {
  let image = '';
  let box: TraceArgs['box'] = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--box') {
      const values = (argv[++i] ?? '').split(',').map(Number);
      if (values.length !== 4 || !values.every(Number.isFinite)) throw new Error('--box needs X0,Y0,X1,Y1 (image pixels)');
      box = values as TraceArgs['box'];
    } else if (argv[i] === '--help') {
      console.log('npm run trace -- IMAGE [--box X0,Y0,X1,Y1]');
      process.exit(0);
    } else if (!image) image = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!image) throw new Error('an image file is required: npm run trace -- IMAGE [--box X0,Y0,X1,Y1]');
  return { image, box };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const data = new Uint8Array(await fs.readFile(args.image));
  const recognizer = await createRecognizer({ tracking: false, log: () => {}, trace: (event) => traceLines(event, args.box).forEach((line) => console.log(line)) });
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
