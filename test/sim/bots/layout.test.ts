import { describe, expect, it } from 'vitest';
import {
  CASCADE_STEP_MM,
  INDEX_STRIP_MM,
  MAX_WORK_PILE_CARDS,
  cardCorners,
  computeLayout,
  nertsPose,
  seatToTable,
  stockPose,
  tableToSeat,
  wastePose,
  workPose,
  type TableLayout,
} from '../../../server/sim/layout';

function layoutFor(n: number): TableLayout {
  return computeLayout(Array.from({ length: n }, (_, i) => ({ playerId: `p${i + 1}`, deckId: `d${i + 1}` })));
}

function insideTable(layout: TableLayout, pose: { xMm: number; yMm: number; rotationRad: number }): boolean {
  const { widthMm, heightMm } = layout.table;
  return cardCorners(pose).every((c) => Math.abs(c.x) <= widthMm / 2 && Math.abs(c.y) <= heightMm / 2);
}

describe('table layout', () => {
  it('rejects fewer than 2 or more than 6 players with a clear error', () => {
    expect(() => layoutFor(1)).toThrow(/2 to 6 players/);
    expect(() => layoutFor(7)).toThrow(/2 to 6 players/);
  });

  it('seat frame conversions are inverse to each other', () => {
    const layout = layoutFor(5);
    for (const seat of layout.seats) {
      const p = seatToTable(seat, 37, -81);
      const back = tableToSeat(seat, p.xMm, p.yMm);
      expect(back.u).toBeCloseTo(37, 6);
      expect(back.v).toBeCloseTo(-81, 6);
    }
  });

  for (let n = 2; n <= 6; n++) {
    it(`${n} players: every pile position, with full 13-card cascades, lies on the table`, () => {
      const layout = layoutFor(n);
      expect(layout.seats).toHaveLength(n);
      for (const seat of layout.seats) {
        for (let i = 0; i < 13; i++) expect(insideTable(layout, nertsPose(seat, i, `x${i}`))).toBe(true);
        for (let i = 0; i < 40; i++) expect(insideTable(layout, stockPose(seat, i, `x${i}`))).toBe(true);
        for (let i = 0; i < 40; i++) expect(insideTable(layout, wastePose(seat, i, i - 2, `x${i}`))).toBe(true);
        for (let pile = 0; pile < 4; pile++) {
          for (let i = 0; i < MAX_WORK_PILE_CARDS; i++) expect(insideTable(layout, workPose(seat, pile, i, `x${i}`))).toBe(true);
        }
      }
    });

    it(`${n} players: seats face the centre and tableaus do not overlap`, () => {
      const layout = layoutFor(n);
      for (const seat of layout.seats) {
        // The far row (towards the centre) is nearer the centre than the seat point.
        const far = seatToTable(seat, 0, -200);
        expect(Math.hypot(far.xMm, far.yMm)).toBeLessThan(Math.hypot(seat.xMm, seat.yMm));
      }
      // Cards of different seats never overlap: compare bounding circles of every pile slot.
      const slots = layout.seats.map((seat) => {
        const poses = [nertsPose(seat, 0, 'a'), stockPose(seat, 0, 'a'), wastePose(seat, 2, 0, 'a')];
        for (let pile = 0; pile < 4; pile++) for (let i = 0; i < MAX_WORK_PILE_CARDS; i += 3) poses.push(workPose(seat, pile, i, 'a'));
        return poses;
      });
      for (let a = 0; a < n; a++) {
        for (let b = a + 1; b < n; b++) {
          for (const p of slots[a]) for (const q of slots[b]) expect(Math.hypot(p.xMm - q.xMm, p.yMm - q.yMm)).toBeGreaterThan(80);
        }
      }
    });
  }

  it('a work pile cascade leaves each covered card\'s index strip uncovered', () => {
    const layout = layoutFor(4);
    const seat = layout.seats[1];
    expect(CASCADE_STEP_MM).toBeGreaterThanOrEqual(INDEX_STRIP_MM);
    for (let i = 0; i + 1 < MAX_WORK_PILE_CARDS; i++) {
      const lower = tableToSeat(seat, workPose(seat, 0, i, `c${i}`).xMm, workPose(seat, 0, i, `c${i}`).yMm);
      const upper = tableToSeat(seat, workPose(seat, 0, i + 1, `c${i + 1}`).xMm, workPose(seat, 0, i + 1, `c${i + 1}`).yMm);
      // Messy offsets are small enough that the strip still shows.
      expect(upper.v - lower.v).toBeGreaterThanOrEqual(INDEX_STRIP_MM);
    }
  });
});
