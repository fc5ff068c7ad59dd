/**
 * The simulated table as a live source: bots play hand after hand in simulated time and every
 * frame is rendered as a webcam JPEG with its ground truth. The server feeds these frames into
 * the same ingestion path a real webcam uses (the default demo); `npm run sim` writes them to disk.
 *
 * Times in milliseconds (session time runs on across hands), positions in table millimetres.
 */
import { resolveVariant, type VariantRules } from '../game/variants';
import { hashString } from './bots/rng';
import { resolvePlayers, simulateHand, type HandTruth, type SimPlayerSetup, type SimulateHandOptions, type SimulatedHand } from './bots/engine';
import { computeLayout, type TableLayout } from './layout';
import type { SeatLayout, TableScene } from './scene';
import { HandTimeline } from './timeline';
import { withScoreSort } from './score-sort';
import { SimRng } from './bots/rng';
import { createRenderer, type CameraPose, type CardTruth, type Renderer } from './render/index';

/** Options for a simulated live table. */
export interface SimTableOptions {
  /** Players (or a count, 2–6). */
  players: readonly SimPlayerSetup[] | number;
  seed: number;
  /** Frames per second of simulated time. */
  fps: number;
  /** A card-art/1 deck folder for every face (default: the renderer's seeded styles). */
  art?: string;
  camera?: 'top' | 'oblique' | CameraPose;
  /** Image size, pixels (default 1280x720). */
  width?: number;
  height?: number;
  /** Play hand after hand for ever (default false: stop after `hands`). */
  loop?: boolean;
  /** Hands to play when not looping (default 1). */
  hands?: number;
  /** Rules preset or knobs (default `nertz`). */
  variant?: SimulateHandOptions['variant'];
  /** False: skip rendering (jpeg empty, truth []), for scenes-only runs and fast tests. Default true. */
  render?: boolean;
  /** JPEG quality override for the renderer. */
  jpegQuality?: number;
  /**
   * End each hand with the score sort (server/sim/score-sort.ts): the centre cards gathered,
   * then dealt out face down by owner for the camera to count. Default true.
   */
  scoreSort?: boolean;
}

/** One frame of the live table. */
export interface SimFrame {
  /** Session time: runs on across hands, ms. */
  timeMs: number;
  /** Which hand (0-based) and the time within it, ms. */
  handIndex: number;
  handTimeMs: number;
  /** Frame number within the hand, from 0. */
  frameIndex: number;
  /** True for the last frame of its hand. */
  lastOfHand: boolean;
  jpeg: Buffer;
  /** Every card at least partly visible (image pixels), from the renderer. */
  truth: CardTruth[];
  /** The whole hand's ground truth (it covers the hand's future too: compare only plays with landMs <= handTimeMs). */
  handTruth: HandTruth;
  /** The physical table drawn in this frame (table mm). */
  scene: TableScene;
}

/** A player as seated at the simulated table. */
export interface SimSeatedPlayer {
  id: string;
  seat: number;
  deckId: string;
  /** The renderer's back design for this player's deck (or the deck id when not rendering). */
  backDesign: string;
  team?: string;
  /** A partner sharing this tableau (two hands, one score). */
  partner?: { id: string };
}

/** The live simulated table. */
export interface SimTable {
  players: SimSeatedPlayer[];
  seats: SeatLayout[];
  layout: TableLayout;
  /** Per deck id: the renderer's face style and back design names. */
  decks: Record<string, { faces: string; back: string }>;
  /** The camera (so callers can project table mm to pixels); null when not rendering. */
  camera: CameraPose | null;
  variant: VariantRules;
  fps: number;
  /** The next frame, or null when the last hand (without `loop`) is over. */
  next(): Promise<SimFrame | null>;
  /** The hand being played now (its simulation and timeline; `durationMs`: its frames' span, with the score sort). */
  currentHand(): { index: number; seed: number; hand: SimulatedHand; durationMs: number } | null;
  /** Drops the current hand's remaining frames: the next frame starts the next hand. */
  skipRestOfHand(): void;
  /** Drops the current hand's frames before `handTimeMs` (none once past it): for looking at one moment of a hand without rendering the rest. */
  skipToHandTime(handTimeMs: number): void;
  [Symbol.asyncIterator](): AsyncIterator<SimFrame>;
}

/** Seed of hand `index` in a session seeded with `seed` (hand 0 uses the seed itself). */
export function handSeed(seed: number, index: number): number {
  return index === 0 ? seed : hashString(`${seed}/hand/${index}`);
}

/** Checks options; returns a problem description or null. */
export function simTableProblem(options: SimTableOptions): string | null {
  const count = typeof options.players === 'number' ? options.players : options.players?.length;
  if (!Number.isInteger(count) || (count as number) < 2 || (count as number) > 6) return 'players must be 2 to 6';
  if (!Number.isFinite(options.seed)) return 'seed must be a finite number';
  if (!(options.fps > 0 && options.fps <= 120)) return 'fps must be in (0, 120]';
  if (options.hands !== undefined && !(Number.isInteger(options.hands) && options.hands >= 1)) return 'hands must be a positive integer';
  return null;
}

/** Creates a simulated table that renders frame after frame (see SimTableOptions). */
export async function createSimTable(options: SimTableOptions): Promise<SimTable> {
  const problem = simTableProblem(options);
  if (problem) throw new Error(`createSimTable: ${problem}`);
  const resolved = resolvePlayers(options.players, new SimRng(options.seed));
  const layout = computeLayout(resolved.map((p) => ({ playerId: p.id, deckId: p.deckId })));
  const rendering = options.render !== false;
  let renderer: Renderer | null = null;
  const decks: Record<string, { faces: string; back: string }> = {};
  if (rendering) {
    renderer = await createRenderer({
      seed: options.seed,
      width: options.width,
      height: options.height,
      camera: options.camera,
      artDir: options.art,
      table: layout.table,
      jpegQuality: options.jpegQuality,
    });
    for (const p of resolved) decks[p.deckId] = renderer.deckInfo(p.deckId);
  }
  const playerSetups: SimPlayerSetup[] = resolved.map((p) => ({ ...p, backDesign: decks[p.deckId]?.back ?? p.backDesign }));
  const players: SimSeatedPlayer[] = playerSetups.map((p, seat) => ({
    id: p.id,
    seat,
    deckId: p.deckId as string,
    backDesign: p.backDesign as string,
    ...(p.team !== undefined ? { team: p.team } : {}),
    ...(p.partner ? { partner: { id: p.partner.id } } : {}),
  }));
  const frameMs = 1000 / options.fps;
  const handLimit = options.loop ? Infinity : options.hands ?? 1;

  let handIndex = -1;
  let current: { index: number; seed: number; hand: SimulatedHand; timeline: HandTimeline; startMs: number; frames: number } | null = null;
  let frameIndex = 0;
  let sessionStartOfNext = 0;

  const startHand = (): boolean => {
    handIndex++;
    if (handIndex >= handLimit) return false;
    const seed = handSeed(options.seed, handIndex);
    const hand = simulateHand({ players: playerSetups, seed, variant: options.variant, layout });
    const timeline = new HandTimeline(options.scoreSort === false ? hand.timeline : withScoreSort(hand.timeline));
    const frames = Math.floor(timeline.durationMs / frameMs) + 1;
    current = { index: handIndex, seed, hand, timeline, startMs: sessionStartOfNext, frames };
    sessionStartOfNext += frames * frameMs;
    frameIndex = 0;
    return true;
  };

  const variant = resolveVariant(options.variant ?? 'nertz');

  async function next(): Promise<SimFrame | null> {
    if (!current || frameIndex >= current.frames) {
      if (!startHand()) return null;
    }
    const hand = current!;
    const handTimeMs = frameIndex * frameMs;
    const scene = hand.timeline.sceneAt(handTimeMs);
    const rendered = renderer ? await renderer.render(scene) : { jpeg: Buffer.alloc(0), truth: [] as CardTruth[] };
    const frame: SimFrame = {
      timeMs: hand.startMs + handTimeMs,
      handIndex: hand.index,
      handTimeMs,
      frameIndex,
      lastOfHand: frameIndex === hand.frames - 1,
      jpeg: rendered.jpeg,
      truth: rendered.truth,
      handTruth: hand.hand.truth,
      scene,
    };
    frameIndex++;
    return frame;
  }

  return {
    players,
    seats: layout.seats.map(({ seat, playerId, deckId, xMm, yMm, facingRad }) => ({ seat, playerId, deckId, xMm, yMm, facingRad })),
    layout,
    decks,
    camera: renderer ? renderer.camera : null,
    variant,
    fps: options.fps,
    next,
    skipRestOfHand: () => {
      if (current) frameIndex = current.frames;
    },
    skipToHandTime: (handTimeMs: number) => {
      if (current) frameIndex = Math.min(current.frames - 1, Math.max(frameIndex, Math.ceil(handTimeMs / frameMs - 1e-9)));
    },
    currentHand: () => (current ? { index: current.index, seed: current.seed, hand: current.hand, durationMs: current.timeline.durationMs } : null),
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<SimFrame>> {
          const frame = await next();
          return frame ? { value: frame, done: false } : { value: undefined, done: true };
        },
      };
    },
  };
}
