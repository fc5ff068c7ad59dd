/**
 * Builders for hand-made observation sequences: cards at image positions in named zones.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { HandTruth } from '../../server/sim/bots/engine';
import { createSimTable } from '../../server/sim/live';
import { presetCamera } from '../../server/sim/render/camera';
import { RecordingWriter } from '../../server/tables/recording';
import { simCalibration } from '../../server/tables/sim-calibration';
import { sceneObservations, seededRandom } from '../../server/tracker/sim-observations';
import type { CardCode } from '../../server/game/cards';
import type { OwnerEvidence } from '../../server/protocol';
import type { CardObservation, FrameObservations, Quad } from '../../server/vision/types';

/** A face-up card centred at (x, y) pixels, 60x84 px, in `zone`. */
export function face(code: CardCode, x: number, y: number, zone: string, confidence = 0.9): CardObservation {
  const corners: Quad = [[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]];
  return { kind: 'face', code, confidence, corners, zone };
}

/** A frame at `timestampMs` with these cards (1280x720). */
export function frame(timestampMs: number, cards: CardObservation[]): FrameObservations {
  return { timestampMs, width: 1280, height: 720, cards };
}

/** `count` frames `stepMs` apart starting at `startMs`, each with the cards `cardsAt(i)` gives. */
export function frames(startMs: number, count: number, stepMs: number, cardsAt: (i: number) => CardObservation[]): FrameObservations[] {
  return Array.from({ length: count }, (_, i) => frame(startMs + i * stepMs, cardsAt(i)));
}

/**
 * The `card-played` event the tracker reports for `card`: with `ownerBy`, exactly that event;
 * without, whatever evidence named the player.
 */
export function played(player: string, card: CardCode, foundationId: string, newPile: boolean, ownerBy?: OwnerEvidence): unknown {
  const event = { type: 'card-played', player, card, foundationId, newPile };
  return ownerBy ? { ...event, ownerBy } : expect.objectContaining(event);
}

/**
 * Records one 2-player hand (seed 3, 10 fps) of clean ground-truth observations to a fresh file
 * under `prefix` (a temporary folder), as `record:observations` would; returns the file and the
 * hand's truth.
 */
export async function recordCleanHand(prefix: string): Promise<{ file: string; truth: HandTruth }> {
  const file = join(mkdtempSync(join(tmpdir(), prefix)), 'hand.jsonl');
  const sim = await createSimTable({ players: 2, seed: 3, fps: 10, render: false, hands: 1 });
  const camera = presetCamera('top', 1280, 720, sim.layout.table);
  const calibration = simCalibration(sim.layout, camera);
  const writer = new RecordingWriter(file, { seed: 3, players: sim.players, variant: sim.variant, calibration });
  const random = seededRandom(2);
  let truth: HandTruth | null = null;
  for await (const frame of sim) {
    writer.frame(frame.handIndex, frame.frameIndex, frame.timeMs, sceneObservations(frame.scene, camera, calibration, { drop: 0, misread: 0 }, random));
    if (frame.lastOfHand) {
      writer.truth(frame.handIndex, frame.handTruth);
      truth = frame.handTruth;
    }
  }
  await writer.close();
  if (!truth) throw new Error('the simulated hand ended without its truth');
  return { file, truth };
}
