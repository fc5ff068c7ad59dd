import { describe, expect, it } from 'vitest';
import { MEMORY_DEFAULTS, pileReadAsNoCard, placesToProbe, probeDue, probePile, probeSpanPolygon, rememberCentreCards } from '../../server/vision/probe';
import type { LocatedCard } from '../../server/vision/locate';
import type { RgbImage } from '../../server/vision/crop';
import type { Point, Quad } from '../../server/vision/types';
import { paintCards, type PaintedCard } from './painted-cards';

/** Webcam-size white cards, each with a big red pip in the middle, on a dark brown cloth. */
function paint(width: number, height: number, cards: PaintedCard[]): RgbImage {
  const pip = (u: number, v: number, c: PaintedCard) => Math.abs(u) < c.w * 0.3 && Math.abs(v) < c.h * 0.32;
  return { width, height, data: paintCards(width, height, cards, (u, v, c) => (pip(u, v, c) ? [200, 20, 30] : [245, 245, 240])) };
}

const centre = (q: Quad): Point => [q.reduce((s, p) => s + p[0], 0) / 4, q.reduce((s, p) => s + p[1], 0) / 4];
const side = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** A pile zone round (cx, cy): a card's size plus a margin, axis-aligned. */
const zone = (cx: number, cy: number, w: number, h: number): Point[] => [
  [cx - w / 2 - 4, cy - h / 2 - 8],
  [cx + w / 2 + 4, cy - h / 2 - 8],
  [cx + w / 2 + 4, cy + h / 2 + 8],
  [cx - w / 2 - 4, cy + h / 2 + 8],
];

describe('probePile', () => {
  // A seat's column: three cards touching end to end, the Nerts pile (slightly turned) last.
  const column: PaintedCard[] = [
    { cx: 100, cy: 60, w: 36, h: 50, angle: 0 },
    { cx: 100, cy: 110, w: 36, h: 50, angle: 0 },
    { cx: 101, cy: 160, w: 36, h: 50, angle: 0.08 },
  ];
  const image = paint(200, 220, column);

  it('fits the card on a pile that touches its column', () => {
    const pile = column[2];
    const quad = probePile(image, zone(100, 158, 36, 50), 36);
    expect(quad).not.toBeNull();
    const [x, y] = centre(quad!);
    expect(Math.hypot(x - pile.cx, y - pile.cy)).toBeLessThan(2);
    const sides = [side(quad![0], quad![1]), side(quad![1], quad![2])].sort((a, b) => a - b);
    expect(sides[0]).toBeCloseTo(36, -0.5);
    expect(sides[1]).toBeCloseTo(50, -0.5);
  });

  it('finds nothing on an empty pile', () => {
    expect(probePile(image, zone(160, 160, 36, 50), 36)).toBeNull();
  });

  it('does not take a neighbouring card for the pile', () => {
    // A zone beside the column, overlapping its edge: the only outline near it is the column's.
    expect(probePile(image, zone(150, 110, 36, 50), 36)).toBeNull();
  });
});

describe('centre memory: probing where a pile was read', () => {
  const card = (cx: number, cy: number): { corners: Quad } => ({ corners: [[cx - 18, cy - 25], [cx + 18, cy - 25], [cx + 18, cy + 25], [cx - 18, cy + 25]] });
  const LENGTH = 50;

  it('remembers a place read a few times, probes it only when the localiser finds nothing there, and forgets it', () => {
    let memory = rememberCentreCards([], [card(100, 100), card(300, 100)], 0, LENGTH);
    memory = rememberCentreCards(memory, [card(101, 100)], 100, LENGTH);
    expect(placesToProbe(memory, [], LENGTH)).toEqual([]); // read twice: could be a card in flight
    memory = rememberCentreCards(memory, [card(102, 101)], 200, LENGTH);
    expect(memory).toHaveLength(2);
    const probed = placesToProbe(memory, [], LENGTH);
    expect(probed).toHaveLength(1);
    expect(Math.hypot(probed[0].centre[0] - 100.7, probed[0].centre[1] - 100.25)).toBeLessThan(0.1);
    expect(placesToProbe(memory, [card(104, 99)], LENGTH)).toEqual([]); // found there: nothing to probe
    expect(rememberCentreCards(memory, [], 200 + 8001, LENGTH)).toEqual([]);
  });

  it('keeps a pile\'s place where it lies when a card carried over it is read once, and alive while its top reads faintly', () => {
    let memory = [0, 100, 200, 300].reduce((m, t) => rememberCentreCards(m, [card(100, 100)], t, LENGTH), rememberCentreCards([], [], 0, LENGTH));
    // A card in flight read 12 px off the pile: the place moves a quarter of the way.
    memory = rememberCentreCards(memory, [card(112, 100)], 400, LENGTH);
    expect(memory[0].centre).toEqual([103, 100]);
    // Its outline moves with it, centred on the place.
    expect(centre(memory[0].corners)).toEqual([103, 100]);
    // A court card on the pile reads at 0.2 only: faint readings keep the place, though 8 s pass.
    for (let t = 1000; t <= 12000; t += 1000) memory = rememberCentreCards(memory, [], t, LENGTH, [card(103, 100)]);
    expect(memory).toHaveLength(1);
    expect(memory[0].sightings).toBe(5);
    // A faint reading where no place is starts none.
    expect(rememberCentreCards([], [], 0, LENGTH, [card(300, 300)])).toEqual([]);
  });

  it('probes a lost pile top at its remembered place, and not a neighbour', () => {
    // Two piles side by side touching; the localiser lost the right one.
    const piles: PaintedCard[] = [
      { cx: 60, cy: 60, w: 36, h: 50, angle: 0 },
      { cx: 97, cy: 62, w: 36, h: 50, angle: 0.05 },
    ];
    const image = paint(160, 130, piles);
    let memory = rememberCentreCards([], [card(97, 62)], 0, LENGTH);
    memory = rememberCentreCards(memory, [card(97, 62)], 100, LENGTH);
    memory = rememberCentreCards(memory, [card(97, 62)], 200, LENGTH);
    const [place] = placesToProbe(memory, [card(60, 60)], LENGTH);
    const quad = probePile(image, probeSpanPolygon(place), 36);
    expect(quad).not.toBeNull();
    const [x, y] = centre(quad!);
    expect(Math.hypot(x - 97, y - 62)).toBeLessThan(2);
    // Where the pile was set aside (bare cloth), the probe finds nothing.
    const bare = paint(160, 130, [piles[0]]);
    expect(probePile(bare, probeSpanPolygon(place), 36)).toBeNull();
  });
});

describe('probeDue: when a place is probed again', () => {
  const card: Quad = [
    [0, 0],
    [36, 0],
    [36, 50],
    [0, 50],
  ];
  const gap = MEMORY_DEFAULTS.sortEmptyProbeGapMs;

  it('probes a place never probed, and one the frame changed; keeps the last probe where nothing changed', () => {
    expect(probeDue({}, false, 1000, false)).toBe(true);
    expect(probeDue({ probe: null, probedAtMs: 990 }, true, 1000, false)).toBe(true);
    expect(probeDue({ probe: card, probedAtMs: 990 }, true, 1000, false)).toBe(true);
    expect(probeDue({ probe: null, probedAtMs: 990 }, false, 1000, false)).toBe(false);
    expect(probeDue({ probe: card, probedAtMs: 990 }, false, 1000, true)).toBe(false);
  });

  it('in the score sort probes a place found empty again only after the gap; one holding a card at once', () => {
    expect(probeDue({ probe: null, probedAtMs: 1000 }, true, 1000 + gap - 1, true)).toBe(false);
    expect(probeDue({ probe: null, probedAtMs: 1000 }, true, 1000 + gap, true)).toBe(true);
    expect(probeDue({ probe: card, probedAtMs: 1000 }, true, 1001, true)).toBe(true);
    // In play the same empty place is probed on every changed frame.
    expect(probeDue({ probe: null, probedAtMs: 1000 }, true, 1001, false)).toBe(true);
  });

  it('probes again when the clock went back (a new hand, a restarted camera)', () => {
    expect(probeDue({ probe: null, probedAtMs: 5000 }, true, 1000, true)).toBe(true);
  });
});

describe('pileReadAsNoCard: a Nerts pile probed though outlines lie on it', () => {
  const outline = (x: number, source: LocatedCard['source'] = 'split'): LocatedCard => ({ corners: [[x, 0], [x + 36, 0], [x + 36, 50], [x, 50]], source, support: 1 });
  const kinds = (byX: Record<number, string>) => (card: LocatedCard) => byX[card.corners[0][0]];

  it('probes a pile whose every outline was last read as no card', () => {
    expect(pileReadAsNoCard([outline(513), outline(516)], kinds({ 513: 'other', 516: 'other' }))).toBe(true);
  });

  it('leaves a pile alone when one outline reads as a card, or was never read, or a probe lies there, or nothing does', () => {
    expect(pileReadAsNoCard([outline(513), outline(516)], kinds({ 513: 'other', 516: 'face' }))).toBe(false);
    expect(pileReadAsNoCard([outline(513), outline(516)], kinds({ 513: 'other' }))).toBe(false);
    expect(pileReadAsNoCard([outline(513), outline(511, 'probe')], kinds({ 513: 'other', 511: 'other' }))).toBe(false);
    expect(pileReadAsNoCard([], kinds({}))).toBe(false);
  });
});
