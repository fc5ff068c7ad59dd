/**
 * A scripted camera for browser tests: plays a short Nerts sequence into a table's camera
 * socket as frames for the server's fake recogniser (the sanctioned fake: each frame carries
 * the observations it should yield), so the real pipeline (socket → queue → worker → tracker →
 * rules → viewers) moves the dashboard. Positions in image pixels of a 1280x720 frame.
 */
import type { FastifyInstance } from 'fastify';
import type { CardCode } from '../../../server/game/cards';
import { encodeFakeFrame } from '../../../server/vision/fake-recognizer';
import type { CardObservation, Quad } from '../../../server/vision/types';

/** Where each seat's Nerts pile lies in the image, pixels. */
const NERTS_AT: Record<number, [number, number]> = { 0: [640, 640], 1: [110, 360], 2: [1170, 360] };
/** Where each centre pile lies, pixels (piles are told apart by position). */
const PILE_AT: [number, number][] = [[500, 300], [640, 300], [780, 300], [500, 450], [640, 450]];

/** One play: a seat's Nerts top card goes onto centre pile `pile`. */
export interface ScriptedPlay {
  seat: number;
  pile: number;
}

/** A three-player opening: every card comes off a Nerts pile onto the centre. */
export const OPENING: { nerts: Record<number, CardCode[]>; plays: ScriptedPlay[] } = {
  nerts: {
    0: ['AS', '2S', '3S', 'AH', '9C'],
    1: ['AD', '2D', 'QC'],
    2: ['AC', '2C', 'JD'],
  },
  plays: [
    { seat: 0, pile: 0 }, // ann AS: new pile
    { seat: 1, pile: 1 }, // bob AD
    { seat: 0, pile: 0 }, // ann 2S
    { seat: 2, pile: 2 }, // cyrus AC
    { seat: 0, pile: 0 }, // ann 3S
    { seat: 1, pile: 1 }, // bob 2D
    { seat: 2, pile: 2 }, // cyrus 2C
    { seat: 0, pile: 3 }, // ann AH: new pile
  ],
};

function cardAt(code: CardCode, [x, y]: [number, number], zone: string): CardObservation {
  const corners: Quad = [[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]];
  return { kind: 'face', code, confidence: 0.95, corners, zone };
}

/** The table after `playsDone` plays: each seat's Nerts top and each centre pile's top. */
export function sceneAfter(script: typeof OPENING, playsDone: number): CardObservation[] {
  const nertsIndex: Record<number, number> = Object.fromEntries(Object.keys(script.nerts).map((seat) => [seat, 0]));
  const pileTops = new Map<number, CardCode>();
  for (const play of script.plays.slice(0, playsDone)) {
    pileTops.set(play.pile, script.nerts[play.seat][nertsIndex[play.seat]]);
    nertsIndex[play.seat] += 1;
  }
  const cards: CardObservation[] = [];
  for (const [seat, pile] of Object.entries(script.nerts)) {
    const top = pile[nertsIndex[Number(seat)]];
    if (top) cards.push(cardAt(top, NERTS_AT[Number(seat)], `seat-${seat}/nerts`));
  }
  for (const [pile, top] of pileTops) cards.push(cardAt(top, PILE_AT[pile], 'centre'));
  return cards;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Frames (100 ms apart) the last scene is held for: longer than the tracker's attribution delay (1 s). */
const SETTLE_FRAMES = 16;

/** A card seen at (x, y) pixels in `zone` (the observation the fake recogniser will return). */
export function seenCard(code: CardCode, x: number, y: number, zone: string, confidence = 0.9): CardObservation {
  const corners: Quad = [[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]];
  return { kind: 'face', code, confidence, corners, zone };
}

/**
 * A race for one slot, staged as the tracker's own dispute test does (frames 100 ms apart): Ann
 * and Bob each hold a 2♠; Ann's flies in and lands on the A♠ pile first; Bob's flies in, lies on
 * it, and goes back to his seat. The first lander stays; the second is a rival play.
 */
export function raceFrames(): CardObservation[][] {
  const pile: [number, number] = [640, 360];
  const ann: [number, number] = [300, 620];
  const bob: [number, number] = [980, 200];
  const repeat = (count: number, cards: (i: number) => CardObservation[]) => Array.from({ length: count }, (_, i) => cards(i));
  const ace = () => seenCard('AS', ...pile, 'centre');
  const annHome = () => seenCard('2S', ...ann, 'seat-0/work');
  const bobHome = () => seenCard('2S', ...bob, 'seat-1/work');
  return [
    ...repeat(4, () => [ace()]),
    // both players hold a 2♠ in their work piles
    ...repeat(3, () => [ace(), annHome(), bobHome()]),
    // Ann's 2♠ is carried across the centre and lands; Bob's is still at home
    ...repeat(2, (i) => [ace(), seenCard('2S', 500 + i * 60, 500, 'centre'), bobHome()]),
    ...repeat(4, () => [seenCard('2S', ...pile, 'centre'), bobHome()]),
    // Bob's copy flies in (two 2♠ in the centre) and lies on the pile
    ...repeat(3, (i) => [seenCard('2S', ...pile, 'centre'), seenCard('2S', 900 - i * 100, 300 + i * 20, 'centre')]),
    ...repeat(6, () => [seenCard('2S', pile[0] + 10, pile[1] + 5, 'centre')]),
    // the second lander's card goes back where it came from
    ...repeat(SETTLE_FRAMES, () => [seenCard('2S', ...pile, 'centre'), bobHome()]),
  ];
}

/**
 * A scripted camera on a table's camera socket: each `show` sends one frame (capture times 100 ms
 * apart) and waits until the pipeline has taken it, so none is dropped as stale.
 */
async function openScriptedCamera(app: FastifyInstance, tableId: string, cameraToken: string) {
  const table = app.tables.get(tableId);
  if (!table) throw new Error(`no table ${tableId}`);
  const camera = await app.injectWS(`/api/tables/${encodeURIComponent(tableId)}/camera?token=${encodeURIComponent(cameraToken)}`);
  let captureMs = Date.now();
  const taken = () => table.stats().framesProcessed + table.stats().framesDropped;
  return {
    async show(cards: CardObservation[]): Promise<void> {
      const before = taken();
      const header = Buffer.alloc(8);
      header.writeDoubleLE(captureMs, 0);
      camera.send(Buffer.concat([header, encodeFakeFrame(cards)]));
      captureMs += 100;
      const deadline = Date.now() + 5000;
      while (taken() <= before && Date.now() < deadline) await sleep(5);
    },
    close: () => camera.terminate(),
  };
}

/** Sends frames (100 ms apart in capture time) into a table's camera socket, each taken by the pipeline before the next. */
export async function sendFrames(app: FastifyInstance, tableId: string, cameraToken: string, frames: CardObservation[][]): Promise<void> {
  const camera = await openScriptedCamera(app, tableId, cameraToken);
  try {
    for (const cards of frames) await camera.show(cards);
  } finally {
    camera.close();
  }
}

/**
 * Plays the script into the table's camera socket: `framesPerStep` frames 100 ms apart (capture
 * time) for each step, waiting for the pipeline to take each frame so none is dropped as stale.
 * `onStep` runs after each play has been shown (tests look at the page there).
 */
export async function playScript(
  app: FastifyInstance,
  tableId: string,
  cameraToken: string,
  options: { script?: typeof OPENING; framesPerStep?: number; wallMsPerFrame?: number; onStep?: (playsDone: number) => Promise<void> } = {},
): Promise<void> {
  const script = options.script ?? OPENING;
  const framesPerStep = options.framesPerStep ?? 6;
  const camera = await openScriptedCamera(app, tableId, cameraToken);
  try {
    for (let step = 0; step <= script.plays.length; step += 1) {
      const cards = sceneAfter(script, step);
      for (let i = 0; i < framesPerStep; i += 1) {
        await camera.show(cards);
        if (options.wallMsPerFrame) await sleep(options.wallMsPerFrame);
      }
      await options.onStep?.(step);
    }
    // Hold the last scene a while: the tracker decides who played a card a second after it lands.
    const finalCards = sceneAfter(script, script.plays.length);
    for (let i = 0; i < SETTLE_FRAMES; i += 1) await camera.show(finalCards);
  } finally {
    camera.close();
  }
}
