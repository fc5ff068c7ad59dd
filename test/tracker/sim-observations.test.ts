/**
 * Ground-truth observations (server/tracker/sim-observations.ts): what moved between two scenes,
 * as the recogniser's change detector reports it (`noise.motion`).
 */
import { describe, expect, it } from 'vitest';
import { createSimTable } from '../../server/sim/live';
import { presetCamera } from '../../server/sim/render/camera';
import type { HandPose, TableScene } from '../../server/sim/scene';
import { simCalibration } from '../../server/tables/sim-calibration';
import { MOTION_CELL_PX, sceneMotion, sceneObservations, seededRandom } from '../../server/tracker/sim-observations';

describe('motion in ground-truth observations', async () => {
  const sim = await createSimTable({ players: 4, seed: 1, fps: 10, render: false, hands: 1 });
  const camera = presetCamera('top', 1280, 720, sim.layout.table);
  const calibration = simCalibration(sim.layout, camera);
  const scene = (hands: HandPose[]): TableScene => ({ timeMs: 0, cards: [], hands }) as unknown as TableScene;
  // A seat's hand at (x, y) (table mm from the middle), its forearm reaching back to where it crosses that seat's table edge.
  const arm = (seat: number, xMm: number, yMm: number): HandPose => {
    const { edgeXMm, edgeYMm } = sim.layout.seats[seat];
    return { seat, xMm, yMm, elbowXMm: edgeXMm, elbowYMm: edgeYMm, zMm: 60, appearance: 0 };
  };

  it('reports a moving arm as the cells under it, with the seats whose zones it crosses', () => {
    const before = scene([arm(0, 0, 40)]);
    const after = scene([arm(0, 0, 0)]);
    const [blob, ...rest] = sceneMotion(after, before, camera, calibration);
    expect(rest).toEqual([]);
    expect(blob.cellSize).toBe(MOTION_CELL_PX);
    expect(blob.seats).toContain(0);
    // It runs from the table's middle (the image centre) towards seat 0's side.
    const [cx, cy] = [camera.width / 2, camera.height / 2];
    expect(blob.cells.some(([x, y]) => Math.abs(x - cx) <= MOTION_CELL_PX && Math.abs(y - cy) <= MOTION_CELL_PX)).toBe(true);
    expect(blob.cells.length).toBeGreaterThan(3);
  });

  it('reports nothing for a hand held still, and one blob for two arms that touch', () => {
    expect(sceneMotion(scene([arm(0, 0, 0)]), scene([arm(0, 0, 0)]), camera, calibration)).toEqual([]);
    const two = sceneMotion(scene([arm(0, 0, 0), arm(2, 10, 10)]), scene([arm(0, 0, 40), arm(2, 10, 60)]), camera, calibration);
    expect(two).toHaveLength(1);
    expect(two[0].seats).toEqual(expect.arrayContaining([0, 2]));
  });

  it('adds motion to the observations only when asked', () => {
    const [before, after] = [scene([arm(1, 0, 40)]), scene([arm(1, 0, 0)])];
    const plain = sceneObservations(after, camera, calibration, { drop: 0, misread: 0 }, seededRandom(1), before);
    expect(plain.motion).toBeUndefined();
    const moving = sceneObservations(after, camera, calibration, { drop: 0, misread: 0, motion: true }, seededRandom(1), before);
    expect(moving.motion).toHaveLength(1);
    expect(moving.motion![0].seats).toContain(1);
  });
});
