/**
 * The score sort of a simulated hand as one frame, for checks of the sort's whole read
 * (bench:sort, the recogniser's tests): the last frame of the hand's sort, with each deck's back
 * as a player would enrol it (cropped from the hand's first frame) and the table's calibration.
 */
import { quadCentre } from '../geometry';
import { createSimTable, type SimFrame } from '../sim/live';
import type { Quad, TableCalibration } from '../vision/types';
import { cropQuad } from './crop';
import { simCalibration } from './sim-calibration';
import { backViews } from './sim-feed';

/** A dealt card and a reported one are the same card when their centres lie this close, pixels. */
export const SAME_SPOT_PX = 15;

/** Whether a reported outline stands for a true one (centres within SAME_SPOT_PX). */
export function sameSpot(a: Quad, b: Quad): boolean {
  const [ca, cb] = [quadCentre(a), quadCentre(b)];
  return Math.hypot(ca[0] - cb[0], ca[1] - cb[1]) < SAME_SPOT_PX;
}

/** The last frame (100 ms before the end) of hand `hand`'s score sort on a simulated top-down table. */
export async function lastSortFrame(players: number, seed: number, hand = 0): Promise<{ calibration: TableCalibration; views: Array<readonly [string, Uint8Array]>; frame: SimFrame }> {
  const sim = await createSimTable({ players, seed, fps: 30, camera: 'top', hands: hand + 1 });
  let first = (await sim.next())!;
  while (first.handIndex < hand) {
    sim.skipToHandTime(sim.currentHand()!.durationMs - 10);
    let next = await sim.next();
    while (next && next.handIndex < hand) next = await sim.next();
    if (!next) throw new Error(`the simulated table ${players}:${seed} has no hand ${hand}`);
    first = next;
  }
  const views = await Promise.all([...backViews(first.truth)].map(async ([deck, corners]) => [deck, await cropQuad(first.jpeg, corners)] as const));
  sim.skipToHandTime(sim.currentHand()!.durationMs - 100);
  const frame = (await sim.next())!;
  return { calibration: simCalibration(sim.layout, sim.camera!), views, frame };
}
