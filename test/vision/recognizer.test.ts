/**
 * The committed model: loads offline, recognises a frame without leaking tensors, enrols backs,
 * and keeps a minimum top-1 accuracy on a fixture list of real crops (images read from
 * ../shared/data; skipped with a message when that data is missing).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import * as tf from '@tensorflow/tfjs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDataDir, REPO_ROOT } from '../../datasets/lib/shared-data';
import { createRecognizer, DEFAULT_BACK_MODEL_DIR, DEFAULT_LIVE_INDEX_MODEL_DIR, DEFAULT_LIVE_MODEL_DIR, DEFAULT_MODEL_DIR, LIVE_MODEL_BELOW_PX, ONE_WAY_SURE, type CardRecognizer, type LiveModelUse, type RecognizerConfig, type TraceEvent } from '../../server/vision/index';
import type { Helper } from '../../server/vision/inference';
import { LOCATE_DEFAULTS } from '../../server/vision/locate';
import { loadLayersModelFromDir, saveLayersModelToDir } from '../../server/vision/model-io';
import type { FrameInput, FrameObservations, Quad } from '../../server/vision/types';
import type { CardCode } from '../../server/game/cards';
import { createSimTable } from '../../server/sim/live';
import { createRenderer } from '../../server/sim/render/index';
import type { CardPose, TableScene } from '../../server/sim/scene';
import { simCalibration } from '../../server/tables/sim-calibration';
import { lastSortFrame, sameSpot } from '../../server/tables/sim-sort-frame';

/** Accuracy the committed model must keep on the fixture crops (measured, minus a margin). */
const MIN_FIXTURE_ACCURACY = 0.8; // 87.7 % measured with both committed models (72.6 % with the whole-card model alone)

const hasModel = existsSync(path.join(DEFAULT_MODEL_DIR, 'model.json'));
const hasLiveIndexModel = existsSync(path.join(DEFAULT_LIVE_INDEX_MODEL_DIR, 'model.json'));
const hasLiveModel = existsSync(path.join(DEFAULT_LIVE_MODEL_DIR, 'model.json'));
const fixtureList = path.join(REPO_ROOT, 'test', 'fixtures', 'vision', 'real-crops.txt');
const hasData = existsSync(path.join(sharedDataDir(), 'real', 'cards53'));
const photosDir = path.join(sharedDataDir(), 'real', 'table-photos');
const hasPhotos = existsSync(path.join(photosDir, 'labels.csv'));

/** Runs `body` with a recogniser without tracking (disposed after) and a reader of a real table photo's cards: each one's code, "back" for a back. */
async function withStillRecognizer(body: (readPhoto: (file: string) => Promise<string[]>) => Promise<void>): Promise<void> {
  const still = await createRecognizer({ tracking: false, log: () => {} });
  try {
    await body(async (file) => {
      const result = await still.recognize({ kind: 'encoded', data: new Uint8Array(readFileSync(path.join(photosDir, file))) }, 0);
      return result.cards.map((card) => (card.kind === 'face' ? card.code! : 'back'));
    });
  } finally {
    still.dispose();
  }
}

const hasBackModel = existsSync(path.join(DEFAULT_BACK_MODEL_DIR, 'model.json'));

/** A simulated table's last score-sort frame, the back views to enrol each deck from (its first frame), and `deckId`'s dealt backs. */
async function sortOf(players: number, seed: number, deckId: string) {
  const sort = await lastSortFrame(players, seed);
  return { ...sort, deckId, sorted: sort.frame.truth.filter((t) => t.zone.kind === 'sorted' && t.deckId === deckId) };
}

/** How many of the sort's dealt backs a recogniser (calibrated, every deck enrolled, the frame read whole) reports as their deck's, leaking no tensors. */
async function sortedBacksFound({ calibration, views, frame, deckId, sorted }: Awaited<ReturnType<typeof sortOf>>, config: RecognizerConfig = {}, scoreSort = false): Promise<number> {
  const rec = await createRecognizer({ log: () => {}, minConfidence: 0.35, ...config });
  try {
    rec.setCalibration(calibration);
    for (const [deck, view] of views) await rec.enrollBack(deck, [{ kind: 'encoded', data: view }]);
    const before = tf.memory().numTensors;
    const { cards } = await rec.recognize({ kind: 'encoded', data: frame.jpeg }, 0, { everyCard: true, scoreSort });
    expect(tf.memory().numTensors).toBe(before);
    return sorted.filter((t) => cards.some((c) => c.kind === 'back' && c.backId === deckId && c.confidence >= 0.35 && sameSpot(c.corners, t.corners))).length;
  } finally {
    rec.dispose();
  }
}

/**
 * A rendered 1280x720 top view of a plain green table with a 7C, and a QH `qhXMm` to the right
 * of the table's middle (the simulator's renderer and art: no shared data needed).
 */
async function twoCardFrame(qhXMm = 60): Promise<FrameInput> {
  const renderer = await createRenderer({
    seed: 3, width: 1280, height: 720, camera: 'top', jpegQuality: 92,
    decks: { d0: { faces: 'npm-cardsjs', back: 'gen-back-3' } },
    look: { plain: true, surface: { kind: 'laminate', base: [30, 90, 40], accent: [30, 90, 40] } },
  });
  const pose = (code: CardCode, xMm: number): CardPose => ({ id: `d0/${code}`, code, deckId: 'd0', owner: 'p0', faceUp: true, xMm, yMm: 0, rotationRad: 0, zMm: 0, zone: { kind: 'stock', seat: 0 } });
  const scene: TableScene = { timeMs: 0, table: { widthMm: 1200, heightMm: 800 }, seats: [], cards: [pose('7C', -150), pose('QH', qhXMm)], hands: [] };
  return { kind: 'encoded', data: new Uint8Array((await renderer.render(scene)).jpeg) };
}

/** The face codes among a frame's cards, sorted. */
const codesOf = (cards: Array<{ code?: CardCode }>) => cards.flatMap((card) => (card.code ? [card.code] : [])).sort();

describe.skipIf(!hasModel)('committed recogniser', () => {
  let recognizer: CardRecognizer;
  beforeAll(async () => {
    recognizer = await createRecognizer({ log: () => {} });
  });
  afterAll(() => recognizer?.dispose());

  it('loads offline on a real backend', () => {
    expect(['tensorflow', 'wasm', 'cpu']).toContain(recognizer.backend);
  });

  it('recognises a frame without leaking tensors, with per-stage timings', async () => {
    const frame = await twoCardFrame();
    await recognizer.recognize(frame, 0); // warm-up
    const before = tf.memory().numTensors;
    const result = await recognizer.recognize(frame, 1);
    await recognizer.recognize(frame, 2);
    expect(tf.memory().numTensors).toBe(before);
    expect(result.width).toBe(1280);
    expect(codesOf(result.cards)).toEqual(['7C', 'QH']);
    expect(result.timingsMs).toHaveProperty('locate');
    for (const card of result.cards) expect(card.corners).toHaveLength(4);
  });

  it('without a calibration, reads court cards lying sideways on a cream board as cards of the frame\'s own size, and the board outlined whole hides none', async () => {
    // 55-px cards on a cream board: two upright (read surely, they set the frame's card size) and
    // three courts lying sideways, whose picture frames are sharper rectangles than their edges.
    const cream: [number, number, number] = [236, 228, 206];
    const renderer = await createRenderer({ seed: 3, width: 1280, height: 720, camera: 'top', jpegQuality: 92, decks: { d0: { faces: 'npm-cardsjs', back: 'gen-back-3' } }, look: { plain: true, surface: { kind: 'laminate', base: cream, accent: cream } } });
    const pose = (code: CardCode, xMm: number, rotationRad: number): CardPose => ({ id: `d0/${code}`, code, deckId: 'd0', owner: 'p0', faceUp: true, xMm, yMm: 0, rotationRad, zMm: 0, zone: { kind: 'stock', seat: 0 } });
    const cards = [pose('7C', -250, 0), pose('5D', -120, 0), pose('QH', 30, Math.PI / 2), pose('KS', 200, Math.PI / 2), pose('JD', 380, Math.PI / 2)];
    const frame: FrameInput = { kind: 'encoded', data: new Uint8Array((await renderer.render({ timeMs: 0, table: { widthMm: 1200, heightMm: 800 }, seats: [], cards, hands: [] })).jpeg) };
    const read = async (typicalSizeLook: boolean) => {
      const rec = await createRecognizer({ tracking: false, typicalSizeLook, log: () => {} });
      try {
        await rec.recognize(frame, 0); // warm-up
        const before = tf.memory().numTensors;
        const codes = codesOf((await rec.recognize(frame, 1)).cards);
        expect(tf.memory().numTensors).toBe(before); // the second look's batch leaks nothing
        return codes;
      } finally {
        rec.dispose();
      }
    };
    expect(await read(true)).toEqual(['5D', '7C', 'JD', 'KS', 'QH']);
    // Without the second look the KS, whose picture frame was outlined, is found all the same since
    // session 52: the net is sure of it, and its own outline, a rival of the fits, reads it.
    expect(await read(false)).toEqual(['5D', '7C', 'JD', 'KS', 'QH']);
  });

  it('traces each localiser\'s outlines and every outline\'s reading, the result unchanged (npm run trace)', async () => {
    const frame = await twoCardFrame();
    const plain = await createRecognizer({ tracking: false, log: () => {} });
    const expected = await plain.recognize(frame, 0);
    plain.dispose();
    const events: TraceEvent[] = [];
    const traced = await createRecognizer({ tracking: false, log: () => {}, trace: (event) => events.push(event) });
    const result = await traced.recognize(frame, 0);
    traced.dispose();
    expect(codesOf(result.cards)).toEqual(codesOf(expected.cards));
    expect(events.map((event) => event.stage)).toEqual(['classical', 'net', 'located', 'read']);
    const read = events.find((event) => event.stage === 'read');
    const located = events.find((event) => event.stage === 'located');
    expect(read && located && read.stage === 'read' && located.stage !== 'read' && read.cards.length >= located.cards.length).toBe(true);
    // Every card reported was read so, from one of the outlines read.
    for (const card of result.cards) {
      expect(read!.stage === 'read' && read!.cards.some((r) => r.identity.kind === 'face' && r.identity.code === card.code)).toBe(true);
    }
  });

  it('tracking reuses last frame for an unchanged frame (same cards as a fresh look)', async () => {
    const frame = await twoCardFrame();
    const fresh = await createRecognizer({ tracking: false, log: () => {} });
    const expected = await fresh.recognize(frame, 0);
    fresh.dispose();
    expect(codesOf(expected.cards)).toEqual(['7C', 'QH']);
    const tracked = await createRecognizer({ tracking: true, log: () => {} });
    await tracked.recognize(frame, 0);
    const again = await tracked.recognize(frame, 1);
    tracked.dispose();
    expect(again.cards.map((c) => c.code ?? c.kind)).toEqual(expected.cards.map((c) => c.code ?? c.kind));
  });

  it('as two stages on two copies (a live table\'s pipeline), reads a live stretch exactly as one copy alone', { timeout: 60_000 }, async () => {
    // Half a second of a 3-player hand at 30 fps, 20 s in: hands move, frames are re-localised where they changed.
    const sim = await createSimTable({ players: 3, seed: 1, fps: 30, camera: 'top', hands: 1 });
    sim.skipToHandTime(20_000);
    const frames = [];
    for (let i = 0; i < 15; i++) frames.push((await sim.next())!);
    const calibration = simCalibration(sim.layout, sim.camera!);
    const summary = (obs: FrameObservations) => obs.cards.map((c) => `${c.zone} ${c.code ?? c.backId ?? c.kind} ${c.confidence.toFixed(3)} ${c.corners.flat().map((v) => v.toFixed(1)).join(',')}`).sort();
    const [alone, locating, reading] = await Promise.all([0, 1, 2].map(() => createRecognizer({ log: () => {} })));
    try {
      for (const rec of [alone, locating, reading]) rec.setCalibration(calibration);
      const before = tf.memory().numTensors;
      let regionsOnly = 0;
      for (const frame of frames) {
        const input: FrameInput = { kind: 'encoded', data: frame.jpeg };
        const expected = await alone.recognize(input, frame.timeMs);
        const located = await locating.locateFrame(input, frame.timeMs);
        // The hand-over crosses to the reading thread with its pixels moved, not copied.
        const crossed = structuredClone(located, { transfer: located.buffers });
        expect(located.buffers.every((buffer) => buffer.byteLength === 0)).toBe(true);
        if (crossed.changed !== null) regionsOnly += 1;
        const read = await reading.readFrame(crossed);
        expect(summary(read)).toEqual(summary(expected));
        expect(read.motion).toEqual(expected.motion);
      }
      expect(regionsOnly).toBeGreaterThan(10);
      expect(tf.memory().numTensors).toBe(before);
    } finally {
      for (const rec of [alone, locating, reading]) rec.dispose();
    }
  });

  it('reads an outline at a new place once it is steady: not while it moves, on its second frame still', async () => {
    // A 7C lies still while a QH slides in (carried by a hand) and stops.
    const qhAtMm = [300, 220, 140, 60, 60];
    const frames = await Promise.all(qhAtMm.map((xMm) => twoCardFrame(xMm)));
    const seen = async (config: RecognizerConfig) => {
      const tracked = await createRecognizer({ tracking: true, log: () => {}, ...config });
      try {
        const out: string[][] = [];
        for (const [k, frame] of frames.entries()) out.push(codesOf((await tracked.recognize(frame, k * 33)).cards));
        return out;
      } finally {
        tracked.dispose();
      }
    };
    // The first frame is read whole; the moving QH is not read; still, it is read on its second frame.
    expect(await seen({})).toEqual([['7C', 'QH'], ['7C'], ['7C'], ['7C'], ['7C', 'QH']]);
    // Without readWhenSteady every outline is read on the frame it appears (budget room for all
    // the moving card's rival outlines: the read budget is not what this tests).
    expect(await seen({ readWhenSteady: false, maxReadsPerFrame: 10 })).toEqual(qhAtMm.map(() => ['7C', 'QH']));
  });

  it('reports faces on a Nerts pile with their look, below the confidence floor too, and centre faces with theirs', async () => {
    // A simulated table, calibrated: a recogniser that keeps only near-certain cards still
    // reports the faces on the Nerts piles, each with a unit-length look for the tracker.
    // 5 s into the hand (2 frames a second, to get there fast).
    const sim = await createSimTable({ players: 3, seed: 1, fps: 2, camera: 'top' });
    let frame = await sim.next();
    for (let i = 0; i < 10; i++) frame = await sim.next();
    const strict = await createRecognizer({ log: () => {}, minConfidence: 0.999, locatorModelDir: null });
    strict.setCalibration(simCalibration(sim.layout, sim.camera!));
    const result = await strict.recognize({ kind: 'encoded', data: frame!.jpeg }, frame!.timeMs);
    // The same frame again: nothing changed, so the tracked cards and the piles' probes are reused.
    const again = await strict.recognize({ kind: 'encoded', data: frame!.jpeg }, frame!.timeMs + 33);
    strict.dispose();
    const onNerts = result.cards.filter((c) => c.zone?.endsWith('/nerts'));
    const nertsKey = (cards: typeof result.cards) => cards.filter((c) => c.zone?.endsWith('/nerts')).map((c) => `${c.zone} ${c.code}`).sort();
    expect(nertsKey(again.cards)).toEqual(nertsKey(result.cards));
    // Every Nerts pile showing a face in full view is seen, also where the localiser misses it
    // (seat 1's 10H touches its column: only the pile probe finds it).
    const inView = frame!.truth.filter((t) => t.zone.kind === 'nerts' && t.faceUp && t.visibleFraction > 0.9);
    expect(inView.length).toBe(3);
    expect(onNerts.map((c) => c.zone).sort()).toEqual(inView.map((t) => `seat-${(t.zone as { seat: number }).seat}/nerts`).sort());
    for (const card of onNerts) {
      expect(card.kind).toBe('face');
      expect(card.look).toHaveLength(96);
      expect(Math.hypot(...card.look!)).toBeCloseTo(1, 2);
    }
    for (const card of result.cards.filter((c) => !c.zone?.endsWith('/nerts'))) {
      // Centre faces down to their own floor (the tracker reads them against their pile), with
      // their look (the tracker counts cards landing there unnamed by it); other cards without.
      if (card.zone === 'centre' && card.kind === 'face') {
        expect(card.confidence).toBeGreaterThanOrEqual(0.15);
        expect(Math.hypot(...card.look!)).toBeCloseTo(1, 2);
      } else {
        expect(card.look).toBeUndefined();
        expect(card.confidence).toBeGreaterThanOrEqual(0.999);
      }
    }
    expect(result.cards.some((c) => c.zone === 'centre' && c.confidence < 0.999)).toBe(true);
  });

  it('probes a Nerts pile whose outlines were read as no card: the card lying there is reported again', async () => {
    // The localiser's split outline of a pile's top can land a few pixels off the card and read
    // as no card; tracking then reuses that reading frame after frame, and with an outline on the
    // pile the pile's own probe never ran (session 43: a pile holding its last card showed
    // nothing for 1.3 s and the tracker called Nerts). Here each outline on a face-up Nerts top is
    // shifted 30 % of a card's width across, as such a split outline lies, between the two stages.
    const sim = await createSimTable({ players: 3, seed: 1, fps: 2, camera: 'top' });
    let frame = await sim.next();
    for (let i = 0; i < 10; i++) frame = await sim.next();
    const tops = frame!.truth.filter((t) => t.zone.kind === 'nerts' && t.faceUp && t.visibleFraction > 0.9);
    const onTop = (corners: Quad) => tops.some((t) => sameSpot(t.corners, corners));
    const shifted = (corners: Quad): Quad => {
      const [dx, dy] = [(corners[1][0] - corners[0][0]) * 0.3, (corners[1][1] - corners[0][1]) * 0.3];
      return corners.map(([x, y]) => [x + dx, y + dy]) as Quad;
    };
    const rec = await createRecognizer({ log: () => {} });
    try {
      rec.setCalibration(simCalibration(sim.layout, sim.camera!));
      const nertsFaces: string[][] = [];
      for (let k = 0; k < 3; k++) {
        const located = await rec.locateFrame({ kind: 'encoded', data: frame!.jpeg }, frame!.timeMs + 33 * k);
        const data = located.data as { found: Array<{ corners: Quad }> };
        data.found = data.found.map((card) => (onTop(card.corners) ? { ...card, corners: shifted(card.corners) } : card));
        const { cards } = await rec.readFrame(located);
        nertsFaces.push(cards.filter((c) => c.zone === 'seat-0/nerts' && c.kind === 'face' && c.confidence > 0.9).map((c) => c.code!));
      }
      const seat0Top = tops.find((t) => (t.zone as { seat: number }).seat === 0)!.code;
      // The shifted outline reads as no card, and the next frame reuses that reading...
      expect(nertsFaces.slice(0, 2)).toEqual([[], []]);
      // ...then, the pile's outlines all known as no card, the probe fits the card there (read on
      // its second frame, as every outline at a new place is).
      expect(nertsFaces[2]).toEqual([seat0Top]);
    } finally {
      rec.dispose();
    }
  });

  it('finds centre cards on a white table by their ink, and reads the seats there as before', async () => {
    // Seed 24 is a white laminate: its cards are as white as the table. 30 s into the hand.
    const sim = await createSimTable({ players: 3, seed: 24, fps: 1, camera: 'top' });
    let frame = await sim.next();
    for (let i = 0; i < 30; i++) frame = await sim.next();
    const read = async (plainTablePath: boolean) => {
      const saved = LOCATE_DEFAULTS.plainShare;
      if (!plainTablePath) LOCATE_DEFAULTS.plainShare = 2; // never reached: the path stays off
      try {
        const rec = await createRecognizer({ log: () => {}, locatorModelDir: null });
        rec.setCalibration(simCalibration(sim.layout, sim.camera!));
        const result = await rec.recognize({ kind: 'encoded', data: frame!.jpeg }, frame!.timeMs, { everyCard: true });
        rec.dispose();
        return result.cards;
      } finally {
        LOCATE_DEFAULTS.plainShare = saved;
      }
    };
    const [on, off] = [await read(true), await read(false)];
    const truthCentre = frame!.truth.filter((t) => t.zone.kind === 'centre' && t.faceUp && t.visibleFraction >= 0.8);
    const centre = (cards: typeof on) => cards.filter((c) => c.zone === 'centre' && c.kind === 'face');
    const named = (cards: typeof on) => truthCentre.filter((t) => centre(cards).some((c) => c.code === t.code)).length;
    expect(truthCentre.length).toBeGreaterThanOrEqual(4);
    expect(named(on)).toBeGreaterThan(named(off));
    // Outlines found by their ink count in the centre only: everything else is read as before.
    const seats = (cards: typeof on) => cards.filter((c) => c.zone !== 'centre').map((c) => `${c.zone} ${c.kind} ${c.code ?? ''}`).sort();
    expect(seats(on)).toEqual(seats(off));
  });

  it("with the learned locator on whole reads only, searches a frame read whole with it and a live frame without", async () => {
    const sim = await createSimTable({ players: 3, seed: 1, fps: 2, camera: 'top' });
    const frames = [await sim.next(), await sim.next(), await sim.next()];
    const rec = await createRecognizer({ log: () => {}, minConfidence: 0.35, learnedLocatorOn: 'whole-reads', liveModels: 'off' });
    try {
      rec.setCalibration(simCalibration(sim.layout, sim.camera!));
      const locator = (rec as unknown as { locatorModel: tf.LayersModel }).locatorModel;
      expect(locator).toBeTruthy();
      let runs = 0;
      const predict = locator.predict.bind(locator);
      locator.predict = ((...args: Parameters<typeof predict>) => {
        runs += 1;
        return predict(...args);
      }) as typeof locator.predict;
      await rec.recognize({ kind: 'encoded', data: frames[0]!.jpeg }, 0);
      await rec.recognize({ kind: 'encoded', data: frames[1]!.jpeg }, 500);
      expect(runs, 'live frames').toBe(0);
      const whole = await rec.recognize({ kind: 'encoded', data: frames[2]!.jpeg }, 1000, { everyCard: true });
      expect(runs, 'a whole read').toBeGreaterThan(0);
      expect(whole.cards.length).toBeGreaterThan(10);
    } finally {
      rec.dispose();
    }
  });

  it('searches the centre and Nerts piles of a plain white table\'s live frames with the learned locator, and finds more of their cards', async () => {
    // Seed 24's white laminate: its cards show only by their ink to the classical localiser. Three
    // live frames 40 s into the hand (the last two compared with the one before: changed regions).
    const sim = await createSimTable({ players: 3, seed: 24, fps: 30, camera: 'top' });
    await sim.next();
    sim.skipToHandTime(40_000);
    const frames = [await sim.next(), await sim.next(), await sim.next()];
    const read = async (locatorModelDir: string | null | undefined) => {
      const rec = await createRecognizer({ log: () => {}, learnedLocatorOn: 'whole-reads', locatorModelDir });
      rec.setCalibration(simCalibration(sim.layout, sim.camera!));
      let runs = 0;
      const locator = (rec as unknown as { locatorModel: tf.LayersModel | null }).locatorModel;
      if (locator) {
        const predict = locator.predict.bind(locator);
        locator.predict = ((...args: Parameters<typeof predict>) => {
          runs += 1;
          return predict(...args);
        }) as typeof locator.predict;
      }
      let cards: FrameObservations['cards'] = [];
      for (const frame of frames) cards = (await rec.recognize({ kind: 'encoded', data: frame!.jpeg }, frame!.timeMs)).cards;
      rec.dispose();
      return { cards, runs };
    };
    const [withNet, without] = [await read(undefined), await read(null)];
    expect(withNet.runs, 'the net searched live frames').toBeGreaterThan(0);
    const last = frames[2]!;
    const counted = last.truth.filter((t) => (t.zone.kind === 'centre' || t.zone.kind === 'nerts') && t.faceUp && t.visibleFraction >= 0.8);
    const named = (cards: FrameObservations['cards']) => counted.filter((t) => cards.some((c) => c.kind === 'face' && c.code === t.code && sameSpot(c.corners, t.corners))).length;
    expect(counted.length).toBeGreaterThanOrEqual(6);
    expect(named(withNet.cards)).toBeGreaterThan(named(without.cards));
  });

  it("probes a white table's Nerts pile where only the net's faint outlines lie: its last card is still reported", async () => {
    // At 135.9 s p1's pile holds a KD of a deck whose court art nearly vanishes in the glare. The
    // net outlines it faintly, reading a QD at 0.19 and a JD at 0.49 (neither counts); with those
    // outlines on the pile its probe used to stand aside and the pile read empty, so the tracker
    // called Nerts for p1 with 3 cards left (session 54). The probe's outline reads the KD.
    // The table's decks are the npm packages' and our generated ones: with ../shared/data's card
    // art among them the seed deals other decks and plays another hand (no KD on that pile then).
    const savedShared = process.env.NERTS_SHARED_DATA;
    process.env.NERTS_SHARED_DATA = path.join(os.tmpdir(), 'nerts-no-shared-data');
    const sim = await createSimTable({ players: 3, seed: 24, fps: 30, camera: 'top' }).finally(() => {
      if (savedShared === undefined) delete process.env.NERTS_SHARED_DATA;
      else process.env.NERTS_SHARED_DATA = savedShared;
    });
    await sim.next();
    sim.skipToHandTime(135_900);
    const rec = await createRecognizer({ log: () => {}, learnedLocatorOn: 'whole-reads' });
    try {
      rec.setCalibration(simCalibration(sim.layout, sim.camera!));
      const onPile: string[] = [];
      for (let k = 0; k < 3; k++) {
        const frame = (await sim.next())!;
        const { cards } = await rec.recognize({ kind: 'encoded', data: frame.jpeg }, frame.timeMs);
        expect(frame.truth.find((t) => t.zone.kind === 'nerts' && t.owner === 'p1' && t.faceUp)?.code).toBe('KD');
        onPile.push(cards.filter((c) => c.zone === 'seat-0/nerts').map((c) => c.code ?? c.kind).join(' '));
      }
      expect(onPile.at(-1)).toBe('KD');
    } finally {
      rec.dispose();
    }
  });

  it('reads at most its budget of changed cards in the players\' areas a live frame, every counted card, and the rest on the next frames', async () => {
    const sim = await createSimTable({ players: 3, seed: 1, fps: 2, camera: 'top' });
    let frame = await sim.next();
    for (let i = 0; i < 10; i++) frame = await sim.next();
    const image = { kind: 'encoded' as const, data: frame!.jpeg };
    const make = async () => {
      // The full models only: a card read from two outlines (the whole read's, a refresh tile's)
      // must read the same, and the live-size index model is less steady on a seat's 9S.
      const made = await createRecognizer({ log: () => {}, minConfidence: 0.35, locatorModelDir: null, maxReadsPerFrame: 3, liveModels: 'off' });
      made.setCalibration(simCalibration(sim.layout, sim.camera!));
      return made;
    };
    const key = (cards: Array<{ zone?: string; code?: CardCode; kind: string }>) => cards.map((c) => `${c.zone} ${c.code ?? c.kind}`).sort();
    const whole = await make();
    const everything = await whole.recognize(image, 0, { everyCard: true });
    whole.dispose();
    const live = await make();
    try {
      const first = await live.recognize(image, 0);
      // Every card on a Nerts pile and in the centre is read at once; the players' other cards wait.
      const counted = (cards: typeof first.cards) => key(cards.filter((c) => c.zone === 'centre' || c.zone?.endsWith('/nerts')));
      expect(counted(first.cards)).toEqual(counted(everything.cards));
      expect(counted(first.cards).length).toBeGreaterThan(3);
      expect(everything.cards.length).toBeGreaterThan(first.cards.length + 3);
      let later = first;
      for (let i = 1; i <= 15; i++) later = await live.recognize(image, i * 33);
      // Every card the whole read found (refresh tiles may have found more since).
      expect(key(later.cards)).toEqual(expect.arrayContaining(key(everything.cards)));
    } finally {
      live.dispose();
    }
  });

  it('enrols a back design from views and names it', async () => {
    const back = await sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="63" height="88"><rect width="63" height="88" fill="#fff"/><rect x="4" y="4" width="55" height="80" fill="#1040a0"/><path d="M4 4 L59 84 M59 4 L4 84" stroke="#fff" stroke-width="3"/></svg>')).png().toBuffer();
    const view: FrameInput = { kind: 'encoded', data: new Uint8Array(back) };
    await recognizer.enrollBack('alice', [view, view]);
    const before = tf.memory().numTensors;
    const [result] = await recognizer.identifyCrops([view]);
    expect(tf.memory().numTensors).toBe(before);
    if (result.kind === 'back') expect(result.backId).toBe('alice');
    await expect(recognizer.enrollBack('bob', [])).rejects.toThrow();
  });

  it.skipIf(!existsSync(path.join(DEFAULT_BACK_MODEL_DIR, 'model.json')))('tells enrolled back designs apart by the back-look model, leaking no tensors', async () => {
    // Two designs the whole-card model's own embedding confuses (session 25): fine grey dots on
    // mauve, and a near-black navy; plus a red lattice.
    const design = (fill: string, pattern: string) =>
      sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="126" height="176"><defs><pattern id="p" width="6" height="6" patternUnits="userSpaceOnUse">${pattern}</pattern></defs><rect width="126" height="176" rx="6" fill="#fafafa"/><rect x="8" y="8" width="110" height="160" rx="4" fill="${fill}"/><rect x="8" y="8" width="110" height="160" rx="4" fill="url(#p)"/></svg>`)).png().toBuffer();
    const looks = {
      dots: await design('#7a6a80', '<circle cx="3" cy="3" r="1" fill="#c8c0c8"/>'),
      navy: await design('#141c38', '<rect width="3" height="3" fill="#1a2444"/>'),
      lattice: await design('#b02020', '<path d="M0 0 L6 6 M6 0 L0 6" stroke="#fff" stroke-width="1"/>'),
    };
    const view = (png: Buffer, gain = 1): Promise<FrameInput> =>
      sharp(png).linear([gain, 1, 1 / gain], [0, 0, 0]).png().toBuffer().then((data) => ({ kind: 'encoded', data: new Uint8Array(data) }));
    const logged: string[] = [];
    const rec = await createRecognizer({ log: (m) => logged.push(m) });
    try {
      expect(logged.join('\n')).toMatch(/backs told apart by back-looks/);
      for (const [name, png] of Object.entries(looks)) await rec.enrollBack(name, [await view(png), await view(png, 1.1)]);
      const before = tf.memory().numTensors;
      const read = await rec.identifyCrops(await Promise.all(Object.values(looks).map((png) => view(png, 0.92))));
      expect(tf.memory().numTensors).toBe(before);
      expect(read.map((r) => (r.kind === 'back' ? r.backId : r.kind))).toEqual(Object.keys(looks));
    } finally {
      rec.dispose();
    }
    // Enrolled views' middles (for outlines inside a card's border) are a share of the view.
    await expect(createRecognizer({ log: () => {}, backMiddle: 0 })).rejects.toThrow(/backMiddle/);
    // Without it, backs are named by the whole-card model's embedding.
    const without: string[] = [];
    (await createRecognizer({ log: (m) => without.push(m), backModelDir: null })).dispose();
    expect(without.join('\n')).not.toMatch(/back-looks/);
  });

  it.skipIf(!existsSync(path.join(DEFAULT_BACK_MODEL_DIR, 'model.json')))('names backs alike but for their colour end to end (a pale blue lattice and a pink one), leaking no tensors', async () => {
    // The live failure (kennard's pale blue-grey lattice named as another deck's pink lattice)
    // needs the renderer's light and blur; nameBackDesign's test (back-colour.test.ts) has its
    // numbers. Here: enrolment and reading with the colour taken along still name each design.
    const lattice = (colour: string) =>
      sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="126" height="176"><defs><pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 0 H8 M0 0 V8" stroke="${colour}" stroke-width="2"/></pattern></defs><rect width="126" height="176" rx="6" fill="#fafafa"/><rect x="8" y="8" width="110" height="160" fill="url(#p)"/></svg>`)).png().toBuffer();
    const looks = { blue: await lattice('#8fa6c8'), pink: await lattice('#d88f9c') };
    const view = (png: Buffer, gain = 1): Promise<FrameInput> =>
      sharp(png).linear(gain, 0).png().toBuffer().then((data) => ({ kind: 'encoded', data: new Uint8Array(data) }));
    const rec = await createRecognizer({ log: () => {} });
    try {
      for (const [name, png] of Object.entries(looks)) await rec.enrollBack(name, [await view(png)]);
      const before = tf.memory().numTensors;
      const read = await rec.identifyCrops(await Promise.all([view(looks.blue, 0.9), view(looks.pink, 0.9), view(looks.blue, 1.05), view(looks.pink, 1.05)]));
      expect(tf.memory().numTensors).toBe(before);
      expect(read.map((r) => (r.kind === 'back' ? r.backId : r.kind))).toEqual(['blue', 'pink', 'blue', 'pink']);
    } finally {
      rec.dispose();
    }
  });

  it.skipIf(!hasBackModel)('counts the score sort\'s red-lattice backs, read as faces at their very edge, by a wider second look', async () => {
    // The 3-player seed-2 table's last sort frame: 29 of p3's red-lattice backs dealt out at
    // about 31x44 pixels. Cropped at their outline the identity model calls many a 2D (session
    // 34: 6 of 29 lost for the count); a crop 6 % wider reads as a back.
    const sort = await sortOf(3, 2, 'deck-p3');
    expect(sort.sorted.length).toBe(29);
    const [wider, edgeOnly] = [await sortedBacksFound(sort), await sortedBacksFound(sort, { backWiderLook: 1 })];
    expect(wider).toBeGreaterThanOrEqual(27); // 28 measured; 29 since session 58's index model
    // Session 58's index model (trained on cascade strips too) no longer reads these backs' edge
    // as a 2D: read at their outline alone 29 are found as well (24 with the session-33 model),
    // so the wider look adds nothing on this frame; it must not cost any.
    expect(wider).toBeGreaterThanOrEqual(edgeOnly);
    await expect(createRecognizer({ log: () => {}, backWiderLook: 0.9 })).rejects.toThrow(/backWiderLook/);
  });

  it.skipIf(!hasBackModel)('counts the score sort\'s blue-grey backs dealt close together on the blue gingham, outlined by their border\'s inner edge', async () => {
    // The same frame: p1's 26 backs, blue-grey inside a thin white border, 7 pixels apart on a
    // gingham whose light checks are as white as their middles. The whiteness masks merge them
    // with the cloth and the blurred edges with each other; the sharp edges close round each
    // back's middle, and the card about it is grown (session 37: 22 of 26 before, 24 after).
    const sort = await sortOf(3, 2, 'deck-p1');
    expect(sort.sorted.length).toBe(26);
    expect(await sortedBacksFound(sort)).toBeGreaterThanOrEqual(24);
  });

  it.skipIf(!hasBackModel)('finds a blue-grey back lost on the gingham in the gap its neighbours leave in a dealt row (the sort read whole)', async () => {
    // Of p1's 26, the one at (469, 586) shows no outline; the backs either side of it in its row
    // do. Looked at as a card of their size between them, it reads as p1's back at 0.94.
    const sort = await sortOf(3, 2, 'deck-p1');
    const [withGaps, without] = [await sortedBacksFound(sort, {}, true), await sortedBacksFound(sort, { dealtGapLook: false }, true)];
    expect(withGaps).toBeGreaterThan(without);
  });

  it.skipIf(!hasBackModel)('counts the 6-player sort\'s near-black checked backs, read faintly, as another face or as no card', async () => {
    // p5's 9 dealt backs at about 28x40 pixels on the last sort frame (session 34, before the
    // fixes: 7 counted). Outlines read `other` or as a face at 0.43 are judged by both embeddings,
    // backs read at 0.40-0.55 take their look's similarity, and a face outline round the cream
    // border no longer hides the back read inside it.
    const sort = await sortOf(6, 1, 'deck-p5');
    expect(sort.sorted.length).toBe(9);
    expect(await sortedBacksFound(sort)).toBe(9);
  });

  it('rejects garbage frames with a clear error', async () => {
    await expect(recognizer.recognize({ kind: 'encoded', data: new Uint8Array([0, 1, 2]) }, 0)).rejects.toThrow(/cannot decode/);
  });

  it.skipIf(!hasData)(`keeps ≥ ${MIN_FIXTURE_ACCURACY * 100}% top-1 on the real-crop fixtures`, async () => {
    const files = readFileSync(fixtureList, 'utf8').split('\n').filter(Boolean);
    const views: FrameInput[] = files.map((f) => ({ kind: 'encoded', data: new Uint8Array(readFileSync(path.join(sharedDataDir(), f))) }));
    const results = await recognizer.identifyCrops(views);
    let right = 0;
    results.forEach((r, i) => {
      const truth = path.basename(path.dirname(files[i]));
      if (truth === 'JOKER' ? r.kind !== 'face' : r.kind === 'face' && r.code === truth) right++;
    });
    expect(right / files.length).toBeGreaterThanOrEqual(MIN_FIXTURE_ACCURACY);
  });

  it.skipIf(!hasData)('rejects jokers whose corners show no index (cards53 valid), still naming faces', async () => {
    const valid = path.join(sharedDataDir(), 'real', 'cards53', 'valid');
    const read = async (file: string) => (await recognizer.identifyCrops([{ kind: 'encoded', data: new Uint8Array(readFileSync(path.join(valid, file))) }]))[0];
    // Jokers 1, 2 and 4 read as queens at 0.1-0.2 with no index in either corner (before: all named).
    for (const file of ['JOKER/1.jpg', 'JOKER/2.jpg', 'JOKER/4.jpg']) expect((await read(file)).kind).toBe('other');
    // An ace whose corner reads only faintly (indexness 0.34) stays a face: its picture is an ace's.
    expect(await read('AH/1.jpg')).toMatchObject({ kind: 'face', code: 'AH' });
  });

  it.skipIf(!hasPhotos)('finds a lone card on an even carpet (the frame itself is no card to hide it in)', async () => {
    await withStillRecognizer(async (readPhoto) => {
      for (const [file, code] of [['IMG_2385.JPG', 'KH'], ['IMG_2394.JPG', '9H']]) expect(await readPhoto(file)).toEqual([code]);
    });
  });

  it.skipIf(!hasPhotos)('reads a card the net is sure of whose classical outline is a piece of it or lies off it (pale wood grain, brick, a placemat)', async () => {
    await withStillRecognizer(async (readPhoto) => {
      // Each photo's one card: the classical localiser outlined a piece of it (cam_image31's 10S:
      // 180 x 201 px of 212 x 294) or the card's size 26 px off (IMG_2478's 10C), read as no card,
      // and that outline claimed the net's card.
      for (const [file, code] of [['cam_image31.jpg', '10S'], ['IMG_2538.JPG', '9H'], ['IMG_2478.JPG', '10C']]) {
        const before = tf.memory().numTensors;
        const codes = await readPhoto(file);
        expect(tf.memory().numTensors).toBe(before);
        expect(codes).toEqual([code]);
      }
    });
  });

  it.skipIf(!hasPhotos)('counts a card both its whole crop and its index corner name alike, each under the floor (photos of a few cards)', async () => {
    await withStillRecognizer(async (readPhoto) => {
      // IMG_2621's JS read 0.56 whole and 0.51 by its corner; IMG_2631's 10H 0.57 and 0.62.
      for (const [file, code] of [['IMG_2621.JPG', 'JS'], ['IMG_2631.JPG', '10H']]) expect(await readPhoto(file)).toContain(code);
    });
  });

  it.skipIf(!hasPhotos)("finds a card cut by the photo's edge of which only a corner shows (IMG_2613's QS at the right edge)", async () => {
    await withStillRecognizer(async (readPhoto) => {
      expect((await readPhoto('IMG_2613.JPG')).sort()).toEqual(['AC', 'JS', 'QD', 'QS']);
    });
  });

  it.skipIf(!hasPhotos)('finds cards whose strip shows beside a sure card, by its size (fans of two and three cards)', async () => {
    await withStillRecognizer(async (readPhoto) => {
      // IMG_2601: a QC's strip beside a 10D (the photo's only lone blob is a pip, so the classical
      // split was 20 pixels wide); IMG_2619: a 10S under a QD; IMG_2649: a JH between a 9H and a
      // JC; IMG_2648: a 10C between an AH and a QS.
      expect((await readPhoto('IMG_2601.JPG')).sort()).toEqual(['10D', 'QC']);
      expect((await readPhoto('IMG_2619.JPG')).sort()).toEqual(['10S', 'QD']);
      expect((await readPhoto('IMG_2649.JPG')).sort()).toEqual(['9H', 'JC', 'JH']);
      expect((await readPhoto('IMG_2648.JPG')).sort()).toEqual(['10C', 'AH', 'QS']);
    });
  });

  it.skipIf(!hasPhotos)('reads a card the net is sure of that only split hypotheses claim (IMG_2516: a 9S half under an envelope)', async () => {
    await withStillRecognizer(async (readPhoto) => {
      expect(await readPhoto('IMG_2516.JPG')).toEqual(['9S']);
    });
  });

  it.skipIf(!hasPhotos)('takes no page or sheet of paper far bigger than the cards beside it for a back', async () => {
    await withStillRecognizer(async (readPhoto) => {
      // IMG_2507: a recipe book's page (2.9 times the KH's area); IMG_2527: a sheet of paper (7 times the JS's).
      expect(await readPhoto('IMG_2507.JPG')).toEqual(['KH']);
      expect(await readPhoto('IMG_2527.JPG')).toEqual(['JS']);
    });
  });

  it.skipIf(!hasData)('reads a crop the other way up only when unsure, naming the fixtures as reading every crop both ways does', async () => {
    const files = readFileSync(fixtureList, 'utf8').split('\n').filter(Boolean).slice(0, 48);
    const views: FrameInput[] = files.map((f) => ({ kind: 'encoded', data: new Uint8Array(readFileSync(path.join(sharedDataDir(), f))) }));
    const always = await createRecognizer({ bothWays: true, log: () => {} });
    try {
      const names = (results: Awaited<ReturnType<CardRecognizer['identifyCrops']>>) => results.map((r) => (r.kind === 'face' ? r.code : r.kind));
      const sure = await recognizer.identifyCrops(views); // default: 'when-unsure'
      const both = await always.identifyCrops(views);
      // A crop read twice decides exactly as with bothWays; one read once was a face ≥ ONE_WAY_SURE.
      expect(names(sure)).toEqual(names(both));
      sure.forEach((r, i) => {
        if (r.confidence !== both[i].confidence) expect(r.kind === 'face' && r.confidence >= ONE_WAY_SURE).toBe(true);
      });
    } finally {
      always.dispose();
    }
  });
});

/** A card image `height` pixels high: a white face with a red mark, or a patterned blue back. */
async function cardView(kind: 'face' | 'back', height: number): Promise<FrameInput> {
  const body =
    kind === 'face'
      ? '<rect width="63" height="88" rx="4" fill="#f7f7f2"/><text x="5" y="18" font-size="16" fill="#c00">Q</text><path d="M31 34 l8 10 -8 10 -8 -10z" fill="#c00"/>'
      : '<rect width="63" height="88" rx="4" fill="#f7f7f2"/><rect x="4" y="4" width="55" height="80" fill="#1d3f9a"/><path d="M4 20 L59 70 M4 50 L40 84 M20 4 L59 40" stroke="#e8d070" stroke-width="4"/>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="63" height="88" viewBox="0 0 63 88">${body}</svg>`;
  const width = Math.round((height * 63) / 88);
  return { kind: 'encoded', data: new Uint8Array(await sharp(Buffer.from(svg)).resize(width, height).png().toBuffer()) };
}

describe.skipIf(!hasModel || !hasLiveIndexModel)('live-size models', () => {
  it('read cards seen small (a whole-table webcam), the full models read close views, and a back enrolled is known at both sizes', async () => {
    // A helper that takes nothing records which models each batch was for.
    const models = new Set<string>();
    const helper: Helper = {
      offer: (job) => {
        if (job.kind === 'cnn') for (const batch of job.batches) models.add(batch.model);
        return null;
      },
    };
    const rec = await createRecognizer({ log: () => {}, helper, liveModels: 'all' });
    try {
      const small = Math.round(LIVE_MODEL_BELOW_PX * 0.7);
      const faces = await Promise.all([small, small, small, small].map((h) => cardView('face', h)));
      await rec.identifyCrops(faces);
      // The committed live-size model reads index corners; a live whole-card model, where one is trained, the whole card.
      expect([...models].sort()).toEqual([hasLiveModel ? 'identity-live' : 'identity', 'index-live']);
      models.clear();
      await rec.identifyCrops(await Promise.all([200, 200, 200, 200].map((h) => cardView('face', h))));
      expect([...models].sort()).toEqual(['identity', 'index']);

      // Off by default: the full models read small cards too.
      const plain = await createRecognizer({ log: () => {}, helper });
      models.clear();
      await plain.identifyCrops(faces);
      plain.dispose();
      expect([...models].sort()).toEqual(['identity', 'index']);

      // A live-size model's folder given alone (`npm run eval -- --live-index-model DIR`) reads every small card.
      const named = await createRecognizer({ log: () => {}, helper, liveIndexModelDir: DEFAULT_LIVE_INDEX_MODEL_DIR });
      models.clear();
      await named.identifyCrops(faces);
      named.dispose();
      expect([...models].sort()).toEqual(['identity', 'index-live']);

      await rec.enrollBack('deck-blue', [await cardView('back', 200)]);
      const [near, far] = await rec.identifyCrops([await cardView('back', 180), await cardView('back', small)]);
      expect(near).toMatchObject({ kind: 'back', backId: 'deck-blue' });
      expect(far).toMatchObject({ kind: 'back', backId: 'deck-blue' });
    } finally {
      rec.dispose();
    }
  });

  it('on a live table with \'seats\', read the players\' own cards; the centre and the Nerts piles stay with the full models', async () => {
    const sim = await createSimTable({ players: 3, seed: 1, fps: 2, camera: 'top' });
    let frame = await sim.next();
    for (let i = 0; i < 10; i++) frame = await sim.next();
    // Corner images each index model read, counted from the batches a helper is offered (half of
    // each batch big enough to share).
    const modelsReading = async (liveModels: LiveModelUse) => {
      const images: Record<string, number> = {};
      const helper: Helper = {
        offer: (job) => {
          if (job.kind === 'cnn') for (const batch of job.batches) images[batch.model] = (images[batch.model] ?? 0) + batch.images;
          return null;
        },
      };
      const rec = await createRecognizer({ log: () => {}, helper, liveModels, locatorModelDir: null });
      try {
        rec.setCalibration(simCalibration(sim.layout, sim.camera!));
        const result = await rec.recognize({ kind: 'encoded', data: frame!.jpeg }, frame!.timeMs, { everyCard: true });
        return { images, counted: result.cards.filter((c) => c.zone === 'centre' || c.zone?.endsWith('/nerts')).length };
      } finally {
        rec.dispose();
      }
    };
    const split = await modelsReading('seats');
    // Every card on this table is small; the counted piles' cards went to the full index model.
    expect(split.counted).toBeGreaterThan(3);
    expect(split.images.index).toBe(split.counted);
    expect(split.images['index-live']).toBeGreaterThan(0);
    const all = await modelsReading('all');
    expect(all.images.index ?? 0).toBe(0);
    expect(all.images['index-live']).toBeGreaterThan(split.images['index-live']);
    const off = await modelsReading('off');
    expect(off.images['index-live'] ?? 0).toBe(0);
    expect(off.images.index).toBeGreaterThan(split.images.index);
  });
});

describe.skipIf(hasData)('real-crop fixtures', () => {
  it('are skipped: shared data missing', () => {
    console.warn(`[vision tests] ${path.join(sharedDataDir(), 'real', 'cards53')} not found: set NERTS_SHARED_DATA to run the real-crop accuracy check`);
  });
});

describe.skipIf(!hasModel)('model I/O', () => {
  it('round-trips a layers model through disk (model.json + weights.bin)', async () => {
    const model = await loadLayersModelFromDir(DEFAULT_MODEL_DIR);
    const dir = path.join(REPO_ROOT, '.cache', 'vision', 'test-roundtrip');
    await saveLayersModelToDir(model, dir, { note: 'test' });
    const again = await loadLayersModelFromDir(dir);
    const x = tf.ones([1, 96, 64, 3]);
    const a = (model.predict(x) as tf.Tensor[])[0];
    const b = (again.predict(x) as tf.Tensor[])[0];
    expect(tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]).toBeLessThan(1e-6);
    tf.dispose([x, a, b]);
    model.dispose();
    again.dispose();
  });
});
