/**
 * `npm run eval -- --data DIR [--model models/card-identity] [--index-model models/card-index|none] [--locator-model models/card-locator|none]
 *   [--live-models | --live-model DIR --live-index-model DIR] [--live-below 72]
 *   [--whole-card-weight 1] [--face-override 0.9] [--min-confidence 0.5] [--out out/eval-NAME] [--limit N]`
 * Evaluates the recogniser on a folder in either layout:
 *  (a) class folders named by card code holding single-card crops (`JOKER` or any non-code
 *      folder: must not be named as one of the 52; a reject counts as right);
 *  (b) images + labels.csv (`filename,width,height,class|code,xmin,ymin,xmax,ymax`).
 * Prints a per-class report, writes a confusion matrix (PNG + JSON), in layout (b) draws every
 * photo with a card missed or one reported where none is labelled (OUT/mistakes/), writes every
 * image's labels and predictions (OUT/predictions.jsonl), and ends with one JSON line:
 * {"images","boxes","recall","precision","facePrecision","accuracy","rankAccuracy","msPerImage"}
 * (facePrecision: of the faces reported, the share matching a labelled card; label sets that box
 * no backs, as the real photos, count every back reported as unmatched in precision). A label
 * may also be `back` (the rendered sets since session 58): found by any prediction, named right
 * as a back; `accuracy` stays over the card codes.
 *
 * `npm run eval -- --strips [--index-model DIR] [--frames 24] [--seed 31337] [--decks kennard,letele]`
 * reads the strips of cascades and fans in rendered scenes of unseen deck art with the index model
 * alone, each cut at its true outline (datasets/lib/strip-reading.ts), and ends with one JSON line:
 * {"strips","namedRight","readNoIndex","coveredNoIndex"} (shares of the strips).
 */
import { existsSync, promises as fs, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ALL_CARD_CODES, isCardCode, RANKS } from '../../server/game/cards';
import { createRecognizer, DEFAULT_INDEX_MODEL_DIR, DEFAULT_MODEL_DIR, type CardRecognizer, type RecognizerConfig } from '../../server/vision/index';
import { initBackend } from '../../server/vision/backend';
import { loadLayersModelFromDir } from '../../server/vision/model-io';
import { readStripCorners, renderedStripSet, scoreStripReadings } from '../lib/strip-reading';
import { Confusion, matchBoxes, parseLabelsCsv, predictedBox, predictionRecord, rankOfLabel, type PredictedBox } from '../lib/metrics';
import { confusionSvg, mistakesSvg, writeOverlayPng, writeSvgAsPng } from '../lib/plots';
import { LABEL_MIN_VISIBLE, writeRenderedEvalSet, type RenderedLabels } from '../lib/rendered';
import { REPO_ROOT } from '../lib/shared-data';
import { liveBackNaming } from '../lib/live-backs';
import { backEnrolmentAccuracy, enrolledDeckAccuracy, heldOutDeckAccuracy, suiteSources } from '../lib/suite';

interface EvalArgs {
  /** Extra modes: 'suite' (held-out deck + back enrolment), 'render' (write a rendered eval set), 'live-backs' (backs named on the live simulated table), 'strips' (the index model on rendered strips). */
  mode: 'data' | 'suite' | 'render' | 'live-backs' | 'strips';
  /** Back-look model folder; null names backs by the whole-card model's embedding (undefined: the default, when present). */
  backModel?: string | null;
  /** Share of each enrolled back view kept for its middle (recogniser's backMiddle). */
  backMiddle?: number;
  /** 'live-backs': players per table and the tables' seeds. */
  players?: number;
  seeds?: number[];
  frames: number;
  /** Share of rendered scenes seen by a whole-table webcam ('render' mode; undefined: the synth default). */
  webcamShare?: number;
  /** Which cards a rendered set labels ('render' mode; see RenderedLabels). */
  renderedLabels?: RenderedLabels;
  /** Scene seed and deck styles of a rendered set ('render' mode; default 4242 and the held-out decks). */
  seed?: number;
  decks?: string[];
  data: string;
  model: string;
  /** Index-corner model folder; null reads whole-card crops only (undefined: the default, when present). */
  indexModel?: string | null;
  /** Learned locator folder; null uses the classical localiser (undefined: the default, when present). */
  locatorModel?: string | null;
  /** `--live-models`: the live-size models in models/ read every card under LIVE_MODEL_BELOW_PX ('all'); else the recogniser's default. */
  liveModels?: 'all';
  /** Live-size identity / index model folders (read cards under LIVE_MODEL_BELOW_PX); null: none. */
  liveModel?: string | null;
  liveIndexModel?: string | null;
  /** Override of the card length under which the live-size models read (pixels; for tuning). */
  liveBelowPx?: number;
  /** Override of the fusion's whole-card exponent (for tuning). */
  wholeCardWeight?: number;
  /** Override of the fusion's face-override threshold (for tuning; above 1 turns it off). */
  faceOverride?: number;
  /** Override of the recogniser's confidence floor (for tuning). */
  minConfidence?: number;
  out: string;
  limit: number;
}

/** The final JSON line's fields. */
export interface EvalSummary {
  images: number;
  boxes: number;
  recall: number;
  precision: number;
  /** Photos: of the faces reported, the share matching a labelled card (NaN for crops). */
  facePrecision: number;
  accuracy: number;
  rankAccuracy: number;
  msPerImage: number;
}

function parseArgs(argv: string[]): EvalArgs {
  let data = '';
  let model = DEFAULT_MODEL_DIR;
  let out = '';
  let limit = Infinity;
  let mode: EvalArgs['mode'] = 'data';
  let frames: number | undefined;
  let webcamShare: number | undefined;
  let renderedLabels: RenderedLabels | undefined;
  let seed: number | undefined;
  let decks: string[] | undefined;
  let indexModel: string | null | undefined;
  let locatorModel: string | null | undefined;
  let liveModel: string | null | undefined;
  let liveIndexModel: string | null | undefined;
  let liveBelowPx: number | undefined;
  let liveModels: 'all' | undefined;
  let wholeCardWeight: number | undefined;
  let minConfidence: number | undefined;
  let faceOverride: number | undefined;
  let backModel: string | null | undefined;
  let backMiddle: number | undefined;
  let players: number | undefined;
  let seeds: number[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    if (argv[i] === '--suite') {
      mode = 'suite';
      continue;
    }
    if (argv[i] === '--live-backs') {
      mode = 'live-backs';
      continue;
    }
    if (argv[i] === '--strips') {
      mode = 'strips';
      continue;
    }
    if (argv[i] === '--live-models') {
      liveModels = 'all';
      continue;
    }
    if (argv[i] === '--make-rendered') {
      mode = 'render';
      out = value;
    } else if (argv[i] === '--frames') frames = Number(value);
    else if (argv[i] === '--webcam-share') webcamShare = Number(value);
    else if (argv[i] === '--labels') {
      if (value === 'readable') renderedLabels = { kind: 'readable' };
      else if (value === 'faces') renderedLabels = { kind: 'faces', minVisible: LABEL_MIN_VISIBLE };
      else throw new Error('--labels needs readable or faces');
    }
    else if (argv[i] === '--seed') seed = Number(value);
    else if (argv[i] === '--decks') decks = value.split(',').filter(Boolean);
    else if (argv[i] === '--data') data = value;
    else if (argv[i] === '--model') model = value;
    else if (argv[i] === '--index-model') indexModel = value === 'none' ? null : path.resolve(value);
    else if (argv[i] === '--locator-model') locatorModel = value === 'none' ? null : path.resolve(value);
    else if (argv[i] === '--live-model') liveModel = value === 'none' ? null : path.resolve(value);
    else if (argv[i] === '--live-index-model') liveIndexModel = value === 'none' ? null : path.resolve(value);
    else if (argv[i] === '--live-below') liveBelowPx = Number(value);
    else if (argv[i] === '--back-model') backModel = value === 'none' ? null : path.resolve(value);
    else if (argv[i] === '--back-middle') backMiddle = Number(value);
    else if (argv[i] === '--players') players = Number(value);
    else if (argv[i] === '--seeds') seeds = value.split(',').map(Number);
    else if (argv[i] === '--whole-card-weight') wholeCardWeight = Number(value);
    else if (argv[i] === '--min-confidence') minConfidence = Number(value);
    else if (argv[i] === '--face-override') faceOverride = Number(value);
    else if (argv[i] === '--out') out = value;
    else if (argv[i] === '--limit') limit = Number(value);
    else if (argv[i] === '--help') {
      console.log('npm run eval -- --data DIR [--model DIR] [--index-model DIR|none] [--locator-model DIR|none] [--live-models | --live-model DIR --live-index-model DIR] [--live-below PX] [--whole-card-weight W] [--face-override F] [--min-confidence C] [--out DIR] [--limit N]\n  or --suite (held-out deck + back enrolment) [--back-model DIR|none] [--back-middle K]\n  or --live-backs [--players 4] [--seeds 1,2] [--frames 200] [--back-model DIR|none] [--back-middle K] (backs named on the live simulated table; K: share of each enrolled back view kept for its middle, 1 = none)\n  or --strips [--index-model DIR] [--frames 24] [--seed 31337] [--decks kennard,letele] (the index model alone on the strips of cascades and fans of rendered unseen art, cut at their true outlines)\n  or --make-rendered DIR [--frames 40] [--webcam-share S] [--seed 4242] [--decks kennard,letele] [--labels readable|faces] (rendered layout-b set, by default of held-out deck art only; S of the scenes seen by a whole-table webcam; another seed or training decks give a set to tune on; readable: every card a person could read, cascade strips by their index and backs as `back`; faces: face-up cards at least 30 % visible, as before session 58)');
      process.exit(0);
    } else throw new Error(`unknown argument ${argv[i]} (try --help)`);
    i++;
  }
  if (mode === 'render') {
    if (!out) throw new Error('--make-rendered needs a folder');
    if (webcamShare !== undefined && !(webcamShare >= 0 && webcamShare <= 1)) throw new Error('--webcam-share needs a number in 0..1');
    if (seed !== undefined && !Number.isInteger(seed)) throw new Error('--seed needs an integer');
    return { mode, frames: frames ?? 40, webcamShare, renderedLabels, seed, decks, data: '', model: path.resolve(model), out: path.resolve(out), limit };
  }
  if (mode === 'strips') {
    if (indexModel === null) throw new Error('--strips reads with an index model: give --index-model DIR, not none');
    if (frames !== undefined && !(Number.isInteger(frames) && frames > 0)) throw new Error('--frames needs a positive integer');
    if (seed !== undefined && !Number.isInteger(seed)) throw new Error('--seed needs an integer');
    return { mode, frames: frames ?? 24, seed, decks, indexModel, data: '', model: path.resolve(model), out: '', limit };
  }
  if (wholeCardWeight !== undefined && !(wholeCardWeight >= 0)) throw new Error('--whole-card-weight needs a number ≥ 0');
  if (minConfidence !== undefined && !(minConfidence >= 0 && minConfidence < 1)) throw new Error('--min-confidence needs a number in 0..1');
  if (mode === 'live-backs') {
    if (players !== undefined && !(Number.isInteger(players) && players >= 2 && players <= 6)) throw new Error('--players needs 2..6');
    if (seeds !== undefined && !seeds.every(Number.isInteger)) throw new Error('--seeds needs integers, e.g. 1,2');
  }
  if (mode === 'suite' || mode === 'live-backs') return { mode, frames: frames ?? (mode === 'live-backs' ? 200 : 40), data: '', model: path.resolve(model), indexModel, locatorModel, backModel, backMiddle, liveModels, liveModel, liveIndexModel, liveBelowPx, wholeCardWeight, faceOverride, minConfidence, out: '', limit, players, seeds };
  if (!data) throw new Error('--data DIR is required (class folders of crops, or images with labels.csv)');
  if (!existsSync(data) || !statSync(data).isDirectory()) throw new Error(`--data ${data}: not a folder`);
  if (!(limit > 0)) throw new Error('--limit needs a positive number');
  return { mode, frames: frames ?? 40, data: path.resolve(data), model: path.resolve(model), indexModel, locatorModel, liveModels, liveModel, liveIndexModel, liveBelowPx, wholeCardWeight, faceOverride, minConfidence, out: path.resolve(out || path.join(REPO_ROOT, 'out', `eval-${path.basename(data)}`)), limit };
}

const IMAGE = /\.(jpe?g|png|webp)$/i;
const REJECT = 'reject';

function pct(x: number): string {
  return Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '  -  ';
}

async function writeConfusion(confusion: Confusion, out: string, title: string): Promise<void> {
  await fs.mkdir(out, { recursive: true });
  await fs.writeFile(path.join(out, 'confusion.json'), JSON.stringify({ classes: confusion.classes, counts: confusion.counts }));
  await writeSvgAsPng(confusionSvg(confusion.classes, confusion.counts, title), path.join(out, 'confusion.png'));
}

function printReport(confusion: Confusion): void {
  console.log('class    precision  recall  support');
  for (const r of confusion.report()) if (r.support > 0 || r.precision > 0) console.log(`${r.cls.padEnd(8)} ${pct(r.precision).padStart(9)} ${pct(r.recall).padStart(7)} ${String(r.support).padStart(8)}`);
}

/** Layout (a): class folders of single-card crops. */
async function evalCrops(recognizer: CardRecognizer, args: EvalArgs): Promise<EvalSummary> {
  const folders = readdirSync(args.data).filter((f) => statSync(path.join(args.data, f)).isDirectory()).sort();
  const confusion = new Confusion([...ALL_CARD_CODES, 'back', REJECT]);
  let images = 0;
  let right = 0;
  let rankRight = 0;
  let named = 0;
  let namedRight = 0;
  let faceCrops = 0;
  let faceCropsNamed = 0;
  let ms = 0;
  const mistakes: string[] = [];
  for (const folder of folders) {
    const truth = isCardCode(folder) ? folder : REJECT;
    const files = readdirSync(path.join(args.data, folder)).filter((f) => IMAGE.test(f)).sort().slice(0, args.limit);
    const views = await Promise.all(files.map(async (f) => ({ kind: 'encoded' as const, data: new Uint8Array(await fs.readFile(path.join(args.data, folder, f))) })));
    const started = performance.now();
    const results = await recognizer.identifyCrops(views);
    ms += performance.now() - started;
    for (const [i, r] of results.entries()) {
      images++;
      const predicted = r.kind === 'face' ? r.code : r.kind === 'back' ? 'back' : REJECT;
      confusion.add(truth, predicted);
      const wrong = truth === REJECT ? r.kind === 'face' : predicted !== truth;
      if (wrong) mistakes.push(`${folder}/${files[i]}: read as ${predicted}`);
      if (r.kind === 'face') {
        named++;
        if (predicted === truth) namedRight++;
      }
      if (truth === REJECT) {
        if (r.kind !== 'face') {
          right++;
          rankRight++;
        }
        continue;
      }
      faceCrops++;
      if (r.kind === 'face') faceCropsNamed++;
      if (predicted === truth) right++;
      if (r.kind === 'face' && rankOfLabel(r.code) === rankOfLabel(truth)) rankRight++;
    }
  }
  printReport(confusion);
  if (mistakes.length) console.log(`mistakes (${mistakes.length}):\n  ${mistakes.join('\n  ')}`);
  await writeConfusion(confusion, args.out, `crops: ${path.basename(args.data)}`);
  console.error(`[eval] confusion matrix → ${path.join(args.out, 'confusion.png')}`);
  return {
    images,
    boxes: images,
    recall: faceCrops ? faceCropsNamed / faceCrops : NaN,
    precision: named ? namedRight / named : NaN,
    facePrecision: NaN,
    accuracy: images ? right / images : NaN,
    rankAccuracy: images ? rankRight / images : NaN,
    msPerImage: images ? ms / images : NaN,
  };
}

/** Layout (b): photos with labels.csv. */
async function evalPhotos(recognizer: CardRecognizer, args: EvalArgs): Promise<EvalSummary> {
  const labels = parseLabelsCsv(await fs.readFile(path.join(args.data, 'labels.csv'), 'utf8'));
  const codeLabels = [...labels.values()].some((e) => e.boxes.some((b) => isCardCode(b.label)));
  const classes = codeLabels ? [...ALL_CARD_CODES, 'back', REJECT, 'missed'] : [...RANKS, 'back', REJECT, 'missed'];
  const confusion = new Confusion(classes);
  let images = 0;
  let boxes = 0;
  let predictions = 0;
  let found = 0;
  let matchedPredictions = 0;
  let faces = 0;
  const unmatched = { back: 0, face: 0 };
  let backLabels = 0;
  let backsFound = 0;
  let backsRight = 0;
  let right = 0;
  let scoredRight = 0;
  let rankRight = 0;
  let ms = 0;
  let drawnPhotos = 0;
  await fs.rm(path.join(args.out, 'mistakes'), { recursive: true, force: true });
  const mistakes: string[] = [];
  // One line per image (labels, predictions, which matched): misses analysed without re-running.
  const records: string[] = [];
  for (const [file, entry] of [...labels].slice(0, args.limit)) {
    const full = path.join(args.data, file);
    if (!existsSync(full)) {
      console.error(`[eval] missing image ${file}, skipped`);
      continue;
    }
    const data = new Uint8Array(await fs.readFile(full));
    const started = performance.now();
    const result = await recognizer.recognize({ kind: 'encoded', data }, 0);
    ms += performance.now() - started;
    images++;
    // Labels may be in a different resolution than the decoded image.
    const sx = entry.width ? entry.width / result.width : 1;
    const sy = entry.height ? entry.height / result.height : 1;
    // A card under others is reported with the part that shows, as the labels box it: that part is
    // matched, and drawn.
    const outlines = result.cards.map((c) => (c.visible ?? c.corners).map(([x, y]) => [x * sx, y * sy] as const));
    const width = entry.width || result.width;
    const height = entry.height || result.height;
    const preds: PredictedBox[] = result.cards.map((c, i) => predictedBox(outlines[i], width, height, c.kind === 'face' && c.code ? c.code : 'back'));
    const match = matchBoxes(entry.boxes, preds);
    const matched = new Set(match.values());
    records.push(JSON.stringify(predictionRecord(file, width, height, entry.boxes, preds, result.cards.map((c) => c.confidence), match)));
    preds.forEach((p, i) => {
      if (!matched.has(i)) unmatched[p.label === 'back' ? 'back' : 'face']++;
    });
    // A photo with a card missed or a card reported where none is labelled: drawn, to be looked at.
    if (match.size < entry.boxes.length || matched.size < preds.length) {
      const drawn = result.cards.map((c, i) => ({ corners: outlines[i], label: preds[i].label, confidence: c.confidence, matched: matched.has(i) }));
      await fs.mkdir(path.join(args.out, 'mistakes'), { recursive: true });
      await writeOverlayPng(data, width, height, mistakesSvg(width, height, entry.boxes, new Set(match.keys()), drawn), path.join(args.out, 'mistakes', `${path.basename(file)}.png`));
      drawnPhotos++;
    }
    boxes += entry.boxes.length;
    backLabels += entry.boxes.filter((box) => box.label === 'back').length;
    predictions += preds.length;
    faces += preds.filter((p) => p.label !== 'back').length;
    found += match.size;
    matchedPredictions += match.size;
    entry.boxes.forEach((box, l) => {
      const p = match.get(l);
      const truthRank = rankOfLabel(box.label) ?? box.label;
      const truth = codeLabels ? box.label : truthRank;
      if (p === undefined) {
        confusion.add(truth, 'missed');
        return;
      }
      const predicted = preds[p].label;
      const predictedRank = rankOfLabel(predicted) ?? predicted;
      confusion.add(truth, codeLabels ? predicted : predictedRank);
      // A card labelled `back` (the rendered sets') is named right as a back.
      if (predictedRank === truthRank) rankRight++;
      if (box.label === 'back') {
        backsFound++;
        if (predicted === 'back') backsRight++;
      }
      if (isCardCode(box.label)) {
        scoredRight++;
        if (predicted === box.label) right++;
        else mistakes.push(`${file}: ${box.label} read as ${predicted}`);
      }
    });
  }
  await fs.mkdir(args.out, { recursive: true });
  await fs.writeFile(path.join(args.out, 'predictions.jsonl'), records.join('\n') + '\n');
  printReport(confusion);
  if (mistakes.length) console.log(`mistakes (${mistakes.length}):\n  ${mistakes.slice(0, 40).join('\n  ')}`);
  console.log(`predictions matching no labelled card: ${unmatched.back} backs, ${unmatched.face} faces`);
  if (backLabels > 0) console.log(`cards labelled back: ${backLabels}, found ${backsFound}, read as a back ${backsRight}; faces labelled: ${boxes - backLabels}, found ${found - backsFound}`);
  if (drawnPhotos) console.error(`[eval] ${drawnPhotos} photos with a card missed or reported where none is labelled drawn → ${path.join(args.out, 'mistakes')}`);
  await writeConfusion(confusion, args.out, `photos: ${path.basename(args.data)}`);
  console.error(`[eval] confusion matrix → ${path.join(args.out, 'confusion.png')}`);
  return {
    images,
    boxes,
    recall: boxes ? found / boxes : NaN,
    precision: predictions ? matchedPredictions / predictions : NaN,
    facePrecision: faces ? (faces - unmatched.face) / faces : NaN,
    accuracy: scoredRight ? right / scoredRight : NaN,
    rankAccuracy: found ? rankRight / found : NaN,
    msPerImage: images ? ms / images : NaN,
  };
}

/** The recogniser as evaluated: no tracking (every image is new), models and fusion as asked. */
function recognizerConfig(args: EvalArgs): RecognizerConfig {
  return {
    modelDir: args.model,
    indexModelDir: args.indexModel,
    locatorModelDir: args.locatorModel,
    liveModels: args.liveModels,
    liveModelDir: args.liveModel,
    liveIndexModelDir: args.liveIndexModel,
    liveBelowPx: args.liveBelowPx,
    indexFusion: {
      ...(args.wholeCardWeight === undefined ? {} : { wholeCardWeight: args.wholeCardWeight }),
      ...(args.faceOverride === undefined ? {} : { faceOverride: args.faceOverride }),
    },
    minConfidence: args.minConfidence,
    ...(args.backModel !== undefined ? { backModelDir: args.backModel } : {}),
    ...(args.backMiddle !== undefined ? { backMiddle: args.backMiddle } : {}),
    tracking: false,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.mode === 'render') {
    const written = await writeRenderedEvalSet(args.out, args.frames, args.seed ?? 4242, args.decks ?? ['kennard', 'letele'], args.renderedLabels, args.webcamShare);
    console.log(JSON.stringify({ out: args.out, ...written }));
    return;
  }
  if (args.mode === 'strips') {
    await initBackend();
    const set = await renderedStripSet({ frames: args.frames, seed: args.seed ?? 31337, decks: args.decks });
    const model = await loadLayersModelFromDir(args.indexModel ?? DEFAULT_INDEX_MODEL_DIR);
    const { shown, covered } = await readStripCorners(model, set);
    const score = scoreStripReadings(set.entries.map((e) => e.label), shown, covered);
    model.dispose();
    const share = (n: number) => Number((n / Math.max(1, score.strips)).toFixed(4));
    console.log(JSON.stringify({ strips: score.strips, namedRight: share(score.namedRight), readNoIndex: share(score.readNoIndex), coveredNoIndex: share(score.coveredNoIndex) }));
    return;
  }
  if (args.mode === 'live-backs') {
    const result = await liveBackNaming(() => createRecognizer(recognizerConfig(args)), { players: args.players, seeds: args.seeds, frames: args.frames });
    console.log(`confusions (truth→named): ${JSON.stringify(result.confusions)}`);
    console.log(JSON.stringify({ backs: result.backs, right: result.right, wrong: result.wrong, unnamed: result.unnamed, accuracy: Number(result.accuracy.toFixed(4)) }));
    return;
  }
  if (args.mode === 'suite') {
    const recognizer = await createRecognizer(recognizerConfig(args));
    const set = await suiteSources();
    const deck = await heldOutDeckAccuracy(recognizer, set);
    console.log(`held-out deck mistakes: ${deck.mistakes.slice(0, 30).join(' ')}`);
    const { mistakes: backMistakes, ...backs } = await backEnrolmentAccuracy(recognizer, set);
    console.log(`back mistakes (truth→read): ${JSON.stringify(backMistakes)}`);
    // Last: it enrols faces on the recogniser.
    const enrolled = await enrolledDeckAccuracy(recognizer, set);
    console.log(`held-out deck mistakes with its faces enrolled: ${enrolled.mistakes.slice(0, 30).join(' ')}`);
    recognizer.dispose();
    console.log(JSON.stringify({ heldOutDeck: { crops: deck.crops, accuracy: Number(deck.accuracy.toFixed(4)) }, heldOutDeckEnrolled: { views: enrolled.views, accuracy: Number(enrolled.accuracy.toFixed(4)) }, backs: { ...backs, accuracy: Number(backs.accuracy.toFixed(4)), calledBack: Number(backs.calledBack.toFixed(4)), falseBackOther: Number(backs.falseBackOther.toFixed(4)), falseBackFace: Number(backs.falseBackFace.toFixed(4)) } }));
    return;
  }
  const recognizer = await createRecognizer(recognizerConfig(args));
  const layout = existsSync(path.join(args.data, 'labels.csv')) ? 'photos' : 'crops';
  console.error(`[eval] ${args.data}: layout ${layout === 'photos' ? '(b) labels.csv' : '(a) class folders'}, backend ${recognizer.backend}`);
  const summary = layout === 'photos' ? await evalPhotos(recognizer, args) : await evalCrops(recognizer, args);
  recognizer.dispose();
  const round = (x: number, d: number) => (Number.isFinite(x) ? Number(x.toFixed(d)) : null);
  console.log(
    JSON.stringify({
      images: summary.images,
      boxes: summary.boxes,
      recall: round(summary.recall, 4),
      precision: round(summary.precision, 4),
      facePrecision: round(summary.facePrecision, 4),
      accuracy: round(summary.accuracy, 4),
      rankAccuracy: round(summary.rankAccuracy, 4),
      msPerImage: round(summary.msPerImage, 1),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(`[eval] failed: ${(error as Error).message}`);
  process.exit(1);
});
