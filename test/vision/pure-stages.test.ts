import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ALL_CARD_CODES, type CardCode } from '../../server/game/cards';
import { classMeaning, classNames, FIRST_BACK_CLASS, OTHER_CLASS } from '../../server/vision/classes';
import { decodeFrame } from '../../server/vision/decode';
import { agreedBelowFloor, agreeingFace, namedByStripCorner, stripRivalGroups, STRIP_AGREEING_FLOOR, countsAtFloor, surelyAnotherFace, coveredCards, dropUnsureOverSure, dueForRereading, showsBeside, onHiddenPart, sizeTieBreak, SIZE_TIE_BREAK, FAINT_REREAD_MS, keptByWholeRead, ONE_WAY_BELOW_PX, rememberedBack, turnPolicy, WHOLE_READ_KEEPS } from '../../server/vision/index';
import { BackLooks, backByLooks, backConfidence, EnrollmentStore, LOOK_RESCUE, mayBeBack, OTHER_RESCUE_UNCALIBRATED } from '../../server/vision/enrollment';
import { backEvidence, BACK_EVIDENCE_FROM, decideFromIndex, decideIdentity, identityOutputs, readingRows, rejectIndexless, type Identity, type IndexReading } from '../../server/vision/identify';
import { playArea, tablePlane, zoneAt } from '../../server/vision/rectify';
import { findUnchanged, readsThisFrame, steadyOutlines, THUMB_HEIGHT, THUMB_WIDTH, TrackMemory } from '../../server/vision/tracking';
import type { Quad, TableCalibration } from '../../server/vision/types';

const names = classNames(['gen-1', 'gen-2']);

describe('classes', () => {
  it('lays out 52 faces, other, then backs', () => {
    expect(names.length).toBe(55);
    expect(classMeaning(0, names)).toEqual({ kind: 'face', code: ALL_CARD_CODES[0] });
    expect(classMeaning(OTHER_CLASS, names)).toEqual({ kind: 'other' });
    expect(classMeaning(FIRST_BACK_CLASS + 1, names)).toEqual({ kind: 'back', design: 'gen-2' });
  });
});

describe('decideIdentity', () => {
  const probs = (values: Record<number, number>) => {
    const p = new Float32Array(names.length);
    for (const [k, v] of Object.entries(values)) p[Number(k)] = v;
    return p;
  };
  it('names the best face', () => {
    expect(decideIdentity(probs({ 5: 0.7, 6: 0.2 }), 0, names.length, names)).toMatchObject({ kind: 'face', code: ALL_CARD_CODES[5] });
  });
  it('sums back designs: two half-sure backs beat one face', () => {
    expect(decideIdentity(probs({ 5: 0.4, 53: 0.3, 54: 0.3 }), 0, names.length, names)).toMatchObject({ kind: 'back', confidence: expect.closeTo(0.6, 5) });
  });
  it('rejects when other wins', () => {
    expect(decideIdentity(probs({ 52: 0.6, 1: 0.4 }), 0, names.length, names).kind).toBe('other');
  });
  it('lets enrolled-face evidence tip the balance', () => {
    const boost = new Float32Array(52);
    boost[6] = 0.5;
    expect(decideIdentity(probs({ 5: 0.5, 6: 0.3 }), 0, names.length, names, { faceBoost: boost })).toMatchObject({ code: ALL_CARD_CODES[6] });
  });
  it('lets a close match to an enrolled back make an unsure crop a back', () => {
    const unsure = probs({ 52: 0.45, 53: 0.25, 5: 0.3 });
    expect(decideIdentity(unsure, 0, names.length, names).kind).toBe('other');
    expect(decideIdentity(unsure, 0, names.length, names, { backBoost: backEvidence(0.96) })).toMatchObject({ kind: 'back', confidence: expect.closeTo(0.85, 5) });
    // A look-alike below the evidence threshold changes nothing.
    expect(backEvidence(BACK_EVIDENCE_FROM - 0.05)).toBe(0);
    expect(decideIdentity(unsure, 0, names.length, names, { backBoost: backEvidence(0.85) }).kind).toBe('other');
  });
});

describe('decideFromIndex', () => {
  /** A corner reading sure of rank `rank` and suit `suit` (RANKS / SUITS indices). */
  const reading = (rank: number, suit: number, indexness: number): IndexReading => {
    const r = new Float64Array(13).fill(0.01);
    r[rank] = 1 - 0.12;
    const s = new Float64Array(4).fill(0.01);
    s[suit] = 1 - 0.03;
    return { rank: r, suit: s, indexness };
  };
  it('names the face a clear index shows, ignoring the whole crop (it shows the card on top)', () => {
    const identity = decideFromIndex(reading(8, 0, 0.97));
    expect(identity).toMatchObject({ kind: 'face', code: '9S' });
    expect(identity!.confidence).toBeGreaterThan(0.7);
  });
  it('says nothing when no corner clearly shows an index', () => {
    expect(decideFromIndex(reading(8, 0, 0.6))).toBeNull();
  });
});

describe('rejectIndexless', () => {
  const corners = (indexness: number): IndexReading => ({ rank: new Float64Array(13).fill(1 / 13), suit: new Float64Array(4).fill(0.25), indexness });
  const face = (confidence: number): Identity => ({ kind: 'face', code: 'QD', confidence });
  it('rejects a whole card whose corners show no index and whose picture is like no face (a joker)', () => {
    expect(rejectIndexless(face(0.2), corners(0.05))).toMatchObject({ kind: 'other' });
  });
  it('keeps a face whose corner shows an index, or whose picture is clearly a face, or that was read without the index model', () => {
    expect(rejectIndexless(face(0.2), corners(0.9))).toEqual(face(0.2));
    expect(rejectIndexless(face(0.6), corners(0.05))).toEqual(face(0.6));
    expect(rejectIndexless(face(0.2), undefined)).toEqual(face(0.2));
    const back: Identity = { kind: 'back', confidence: 0.2, design: 'gen-1' };
    expect(rejectIndexless(back, corners(0.05))).toBe(back);
  });
});

/** A unit vector along `v` (an L2-normalised embedding). */
function unit(...v: number[]): Float32Array {
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
}

describe('EnrollmentStore', () => {
  it('names the nearest enrolled back and refuses far ones', () => {
    const store = new EnrollmentStore();
    store.setBack('alice', [unit(1, 0, 0)]);
    store.setBack('bob', [unit(0, 1, 0), unit(0, 1, 0.2)]);
    expect(store.nearestBack(unit(0.1, 1, 0), 0, 3)?.backId).toBe('bob');
    expect(store.nearestBack(unit(0, 0, 1), 0, 3)).toBeNull();
    // Each design's similarity is its nearest view's.
    expect(store.backSimilarities(unit(0, 1, 0.2), 0, 3).get('bob')).toBeCloseTo(1, 5);
    expect(store.backSimilarities(unit(0, 1, 0.2), 0, 3).get('alice')).toBeCloseTo(0, 5);
    expect(() => store.setBack('x', [])).toThrow();
  });
  it("names backs by the views' middles too, but counts only the views as shown as evidence of a back", () => {
    const store = new EnrollmentStore();
    expect(store.backViewSimilarity(unit(1, 0, 0), 0, 3)).toBe(0);
    store.setBack('alice', [unit(1, 0, 0)], [unit(0, 0, 1)]);
    store.setBack('bob', [unit(0, 1, 0)]);
    // A crop like alice's middle (an outline inside the card's edge) is named alice...
    expect(store.nearestBack(unit(0, 0.2, 1), 0, 3)?.backId).toBe('alice');
    // ...but is no closer to a back as shown: plain texture must not pass for a back by it.
    expect(store.backViewSimilarity(unit(0, 0.2, 1), 0, 3)).toBeCloseTo(unit(0, 0.2, 1)[1], 5);
    expect(store.backViewSimilarity(unit(1, 0, 0), 0, 3)).toBeCloseTo(1, 5);
  });
  it('boosts only the enrolled face nearest the crop, by how clearly it is nearest', () => {
    const store = new EnrollmentStore();
    const at = (code: string, boost: Float32Array | undefined) => (boost as Float32Array)[ALL_CARD_CODES.indexOf(code as (typeof ALL_CARD_CODES)[number])];
    expect(store.faceBoost(unit(1, 0, 0), 0, 3)).toBeUndefined();
    store.setFace('QH', [unit(1, 0, 0)]);
    expect(at('QH', store.faceBoost(unit(1, 0.05, 0), 0, 3))).toBeGreaterThan(1);
    // Far from every enrolled view (another deck's card): no evidence.
    expect(at('QH', store.faceBoost(unit(1, 0.5, 0), 0, 3))).toBe(0);
    // Two look-alike faces enrolled: a crop as close to both gets evidence for neither; one
    // clearly nearer the QH gets it for the QH alone.
    store.setFace('QD', [unit(1, 0, 0.1)]);
    const between = store.faceBoost(unit(1, 0, 0.05), 0, 3);
    expect(Math.max(at('QH', between), at('QD', between))).toBeLessThan(0.01);
    const nearQH = store.faceBoost(unit(1, 0, -0.02), 0, 3);
    expect(at('QH', nearQH)).toBeGreaterThan(0);
    expect(at('QD', nearQH)).toBe(0);
    // Setting a face's views replaces them; none forgets it.
    store.setFace('QH', [unit(0, 1, 0)]);
    expect(at('QH', store.faceBoost(unit(1, 0, -0.02), 0, 3))).toBe(0);
    store.setFace('QH', []);
    store.setFace('QD', []);
    expect(store.faceBoost(unit(1, 0, 0), 0, 3)).toBeUndefined();
  });
});

describe('BackLooks', () => {
  it('names the design with the nearest enrolled view, and none when every view is far', () => {
    const looks = new BackLooks();
    expect(looks.nearest(unit(1, 0, 0))).toBeNull();
    looks.set('alice', [unit(1, 0, 0), unit(0.6, 0.8, 0)]);
    looks.set('bob', [unit(0, 1, 0)]);
    expect(looks.size).toBe(2);
    // Nearer alice's second view than bob's only one.
    expect(looks.nearest(unit(0.5, 0.85, 0))?.backId).toBe('alice');
    expect(looks.nearest(unit(0.1, 1, 0))?.backId).toBe('bob');
    expect(looks.nearest(unit(0, 0, 1))).toBeNull();
    const sims = looks.similarities(unit(0.6, 0.8, 0));
    expect(sims.get('alice')).toBeCloseTo(1, 5);
    expect(sims.get('bob')).toBeCloseTo(0.8, 5);
    // Enrolling again replaces the views.
    looks.set('alice', [unit(0, 0, 1)]);
    expect(looks.nearest(unit(0.5, 0.85, 0))?.backId).toBe('bob');
    expect(() => looks.set('x', [])).toThrow();
  });
});

describe('backByLooks', () => {
  const sims = (entries: Record<string, number>) => new Map(Object.entries(entries));
  it('takes an unsure face for the enrolled back both embeddings put it close to, as surely as the weaker says', () => {
    // Measured on the 5-player sort: a dark checked back read as a face at 0.1, look 0.95, whole 0.98.
    expect(backByLooks(sims({ p5: 0.95, p2: -0.1 }), sims({ p5: 0.98, p2: 0.4 }))).toEqual({ backId: 'p5', confidence: 0.95 });
  });
  it('needs both embeddings close, to the same design', () => {
    expect(backByLooks(sims({ p5: 0.95, p2: 0.1 }), sims({ p5: LOOK_RESCUE.minWhole - 0.01, p2: 0.99 }))).toBeNull();
    expect(backByLooks(sims({ p5: LOOK_RESCUE.minLook - 0.01, p2: 0.1 }), sims({ p5: 0.99 }))).toBeNull();
  });
  it('refuses a look every design is about as close to (a texture, the edge of a stock)', () => {
    expect(backByLooks(sims({ p1: 0.9, p3: 0.8 }), sims({ p1: 0.95 }))).toBeNull();
    expect(backByLooks(sims({ p1: 0.9, p3: 0.7 }), sims({ p1: 0.95 }))).toEqual({ backId: 'p1', confidence: 0.9 });
  });
  it('without a calibration, takes a crop read as no card for a back only by a look far ahead of the next design', () => {
    // The backs suite: a near-black gen-43 read as no card, look 0.88 against 0.40 (margin 0.48);
    // a held-out texture, look 0.95 against 0.79 (margin 0.16), which LOOK_RESCUE would take.
    expect(backByLooks(sims({ 'gen-43': 0.88, 'b-2': 0.4 }), sims({ 'gen-43': 0.92 }), OTHER_RESCUE_UNCALIBRATED)).toEqual({ backId: 'gen-43', confidence: 0.88 });
    expect(backByLooks(sims({ 'b-2': 0.946, 'gen-43': 0.786 }), sims({ 'b-2': 0.922 }), OTHER_RESCUE_UNCALIBRATED)).toBeNull();
    expect(backByLooks(sims({ 'b-2': 0.946, 'gen-43': 0.786 }), sims({ 'b-2': 0.922 }))?.backId).toBe('b-2');
  });
  it('with one design enrolled there is no runner-up to beat, and with none no back', () => {
    expect(backByLooks(sims({ p1: 0.9 }), sims({ p1: 0.9 }))?.backId).toBe('p1');
    expect(backByLooks(sims({}), sims({}))).toBeNull();
  });
});

describe('backConfidence', () => {
  const sims = (entries: Record<string, number>) => new Map(Object.entries(entries));
  it('raises a faint back reading to the back-look similarity where that model is sure of one design', () => {
    // Session 34, the 6-player sort: a near-black checked back read as a back at 0.40, look 0.86, next design 0.06.
    expect(backConfidence(0.4, sims({ p5: 0.86, p2: 0.06 }))).toBe(0.86);
    // Never lowers a sure reading.
    expect(backConfidence(0.97, sims({ p5: 0.86, p2: 0.06 }))).toBe(0.97);
  });
  it('leaves it where the look is far from every design or as near to two', () => {
    expect(backConfidence(0.4, sims({ p5: LOOK_RESCUE.minLook - 0.01 }))).toBe(0.4);
    expect(backConfidence(0.4, sims({ p2: 0.9, p3: 0.8 }))).toBe(0.4);
    expect(backConfidence(0.4, sims({}))).toBe(0.4);
  });
});

describe('mayBeBack', () => {
  it('looks again at outlines read as no card or as an unsure face, never at sure faces', () => {
    // Session 34: the fragment-trained model calls a dark back's slightly shifted outline `other` at 0.95.
    expect(mayBeBack({ kind: 'other', confidence: 0.95 }, true)).toBe(true);
    expect(mayBeBack({ kind: 'face', confidence: 0.43 }, true)).toBe(true);
    expect(mayBeBack({ kind: 'face', confidence: 0.74 }, true)).toBe(true); // a red-lattice back read as a 2D
    expect(mayBeBack({ kind: 'face', confidence: LOOK_RESCUE.maxFace }, true)).toBe(false);
    // A face only its index corner made (the whole-card model saw no face) is judged however sure, on a calibrated table.
    expect(mayBeBack({ kind: 'face', confidence: 0.9, byIndex: true }, true)).toBe(true);
    expect(mayBeBack({ kind: 'face', confidence: 0.9, byIndex: true }, false)).toBe(false);
    expect(mayBeBack({ kind: 'face', confidence: 0.99 }, true)).toBe(false);
    expect(mayBeBack({ kind: 'back', confidence: 0.2 }, true)).toBe(false);
    // `other` reads only where asked (a calibrated table); unsure faces always.
    expect(mayBeBack({ kind: 'other', confidence: 0.95 }, false)).toBe(false);
    expect(mayBeBack({ kind: 'face', confidence: 0.43 }, false)).toBe(true);
  });
});

describe('tracking', () => {
  const quad: Quad = [[0, 0], [63, 0], [63, 88], [0, 88]];
  const thumb = new Float32Array(THUMB_WIDTH * THUMB_HEIGHT * 3).fill(0.5);
  const tracks = [{ corners: quad, thumbnail: thumb, value: 'AS' }];
  it('reuses a card that neither moved nor changed, even with corners listed from the other end', () => {
    const turned: Quad = [quad[2], quad[3], quad[0], quad[1]];
    expect(findUnchanged(tracks, turned, thumb)?.value).toBe('AS');
  });
  it('re-identifies a card that moved or changed', () => {
    const moved = quad.map(([x, y]) => [x + 10, y]) as Quad;
    expect(findUnchanged(tracks, moved, thumb)).toBeUndefined();
    expect(findUnchanged(tracks, quad, new Float32Array(thumb.length).fill(0.9))).toBeUndefined();
  });
});

describe('TrackMemory', () => {
  const at = (x: number): Quad => [[x, 0], [x + 63, 0], [x + 63, 88], [x, 88]];
  const look = (v: number) => new Float32Array(THUMB_WIDTH * THUMB_HEIGHT * 3).fill(v);
  it('gives a card back its identity when it reappears where it lay, looking the same (a hand passed over it)', () => {
    const memory = new TrackMemory<string>(1500);
    memory.remember([{ corners: at(0), thumbnail: look(0.5), value: '7H' }, { corners: at(200), thumbnail: look(0.3), value: 'QS' }], 0);
    memory.remember([{ corners: at(200), thumbnail: look(0.3), value: 'QS' }], 33); // 7H covered
    memory.remember([], 66);
    expect(memory.find(at(0), look(0.5))?.value).toBe('7H');
    expect(memory.find(at(0), look(0.9))).toBeUndefined(); // something else lies there now
    expect(memory.size).toBe(2); // one per place
    // On a counted pile only the last frame's cards are trusted: the 7H was not there on it.
    expect(memory.find(at(0), look(0.5), true)).toBeUndefined();
    expect(memory.find(at(200), look(0.3), true)).toBeUndefined();
    memory.remember([{ corners: at(200), thumbnail: look(0.3), value: 'QS' }], 99);
    expect(memory.find(at(200), look(0.3), true)?.value).toBe('QS');
  });
  it('on a counted pile, takes older cards only where their value passes (a sure back: every card of a deck shows it)', () => {
    const memory = new TrackMemory<string>(1500);
    memory.remember([{ corners: at(0), thumbnail: look(0.5), value: 'back' }, { corners: at(200), thumbnail: look(0.3), value: '7C' }], 0);
    memory.remember([], 33); // a hand swept over both
    const backsOnly = (value: string) => value === 'back';
    expect(memory.find(at(0), look(0.5), true, backsOnly)?.value).toBe('back');
    expect(memory.find(at(200), look(0.3), true, backsOnly)).toBeUndefined(); // an 8C may lie there now
    expect(memory.find(at(0), look(0.9), true, backsOnly)).toBeUndefined(); // it must look the same
  });
  it('forgets a card once the memory is over, or when another card lies where it lay', () => {
    const memory = new TrackMemory<string>(1500);
    memory.remember([{ corners: at(0), thumbnail: look(0.5), value: '7H' }, { corners: at(200), thumbnail: look(0.3), value: 'QS' }], 0);
    memory.remember([{ corners: at(0), thumbnail: look(0.6), value: '8H' }], 1000); // 8H put on the 7H
    expect(memory.find(at(0), look(0.5))).toBeUndefined();
    expect(memory.find(at(200), look(0.3))?.value).toBe('QS');
    memory.remember([], 1600);
    expect(memory.find(at(200), look(0.3))).toBeUndefined();
    expect(memory.find(at(0), look(0.6))?.value).toBe('8H');
    memory.remember([], 100); // time went back (a new hand): nothing older is trusted
    expect(memory.size).toBe(0);
  });
});

describe('rememberedBack', () => {
  it('is a back read at least as surely as the floor', () => {
    expect(rememberedBack({ kind: 'back', confidence: 0.6, design: 'gen-1' }, 0.6)).toBe(true);
    expect(rememberedBack({ kind: 'back', confidence: 0.59, design: 'gen-1' }, 0.6)).toBe(false);
    expect(rememberedBack({ kind: 'face', code: 'QH', confidence: 0.99 }, 0.6)).toBe(false);
    expect(rememberedBack({ kind: 'other', confidence: 0.99 }, 0.6)).toBe(false);
  });
});

describe('keptByWholeRead', () => {
  it('keeps backs and faces the whole card made sure, and reads the rest again', () => {
    expect(keptByWholeRead({ kind: 'back', confidence: 0.4, design: 'gen-1' })).toBe(true);
    expect(keptByWholeRead({ kind: 'face', code: 'QH', confidence: WHOLE_READ_KEEPS.minFace })).toBe(true);
    expect(keptByWholeRead({ kind: 'face', code: 'QH', confidence: WHOLE_READ_KEEPS.minFace - 0.01 })).toBe(false);
    // A face only its index corner made: maybe a back whose pattern reads as an index.
    expect(keptByWholeRead({ kind: 'face', code: 'KD', confidence: 0.95, byIndex: true })).toBe(false);
    expect(keptByWholeRead({ kind: 'other', confidence: 0.99 })).toBe(false);
  });
});

describe('dueForRereading', () => {
  const read = (identity: Identity, readAtMs: number) => ({ identity, scale: 'full' as const, embedding: new Float32Array(4), fromIndex: null, readAtMs });
  const faint = read({ kind: 'face', code: '2C', confidence: 0.15 }, 1000);
  it('reads a faint reading of a centre or Nerts pile card again once it is FAINT_REREAD_MS old', () => {
    expect(dueForRereading(faint, 'centre', 1000 + FAINT_REREAD_MS - 1, 0.35)).toBe(false);
    expect(dueForRereading(faint, 'centre', 1000 + FAINT_REREAD_MS, 0.35)).toBe(true);
    expect(dueForRereading(faint, 'seat-1/nerts', 1000 + FAINT_REREAD_MS, 0.35)).toBe(true);
    expect(dueForRereading(read({ kind: 'other', confidence: 0.9 }, 1000), 'centre', 2000, 0.35)).toBe(true);
  });
  it('keeps reusing sure readings, and readings of cards the score does not count', () => {
    expect(dueForRereading(read({ kind: 'face', code: '2S', confidence: 0.8 }, 1000), 'centre', 9000, 0.35)).toBe(false);
    expect(dueForRereading(read({ kind: 'back', confidence: 0.7, design: 'gen-1' }, 1000), 'seat-1/nerts', 9000, 0.35)).toBe(false);
    expect(dueForRereading(faint, 'seat-1/work', 9000, 0.35)).toBe(false);
    expect(dueForRereading(faint, undefined, 9000, 0.35)).toBe(false);
  });
});

describe('readsThisFrame', () => {
  const zones = ['seat-0', 'seat-1/nerts', 'seat-0', 'centre', 'seat-2', 'seat-2', undefined];
  it('reads every changed card while they fit the budget', () => {
    expect(readsThisFrame([0, 2, 5], zones, 5, 7)).toEqual([0, 2, 5]);
  });
  it('over the budget, reads every card on a Nerts pile or in the centre, and the others in turn, frame after frame', () => {
    const unread = [0, 1, 2, 3, 4, 5, 6];
    expect(readsThisFrame(unread, zones, 3, 0)).toEqual([0, 1, 3]);
    expect(readsThisFrame(unread, zones, 3, 1)).toEqual([1, 2, 3]);
    // Every seat card gets its turn within a few frames.
    const seen = new Set<number>();
    for (let frame = 0; frame < 5; frame++) for (const i of readsThisFrame(unread, zones, 3, frame)) seen.add(i);
    expect([...seen].sort()).toEqual(unread);
    // Counted cards beyond the budget are all read; no seat card then.
    expect(readsThisFrame([0, 1, 2, 3], ['seat-0', 'centre', 'seat-1', 'seat-2/nerts'], 1, 0)).toEqual([1, 3]);
  });
});

describe('steadyOutlines', () => {
  const card: Quad = [[100, 100], [163, 100], [163, 188], [100, 188]];
  const shifted = (quad: Quad, dx: number): Quad => quad.map(([x, y]) => [x + dx, y]) as Quad;
  it('an outline where the last frame had one is steady, whichever corner it starts at and with a little jitter', () => {
    const turned: Quad = [card[2], card[3], card[0], card[1]];
    expect(steadyOutlines([shifted(card, 3), turned], [card])).toEqual([true, true]);
  });
  it('an outline at a new place (a card just landed, or one on a moving hand) is not', () => {
    // The tolerance: twice the tracking's 6 % of the short side (63 px) plus a pixel, about 9.6 px.
    expect(steadyOutlines([shifted(card, 12), shifted(card, 200)], [card])).toEqual([false, false]);
    expect(steadyOutlines([card], [])).toEqual([false]);
  });
});

describe('identityOutputs', () => {
  const reading = (probs: number[][], embeddings: number[][]) => ({
    count: probs.length,
    numClasses: probs[0].length,
    embeddingSize: embeddings[0].length,
    probs: Float32Array.from(probs.flat()),
    embeddings: Float32Array.from(embeddings.flat()),
  });
  it('averages two readings\' probabilities and normalises the summed embeddings', () => {
    const out = identityOutputs(reading([[0.8, 0.2], [0.5, 0.5]], [[3, 0], [0, 2]]), reading([[0.6, 0.4], [0.1, 0.9]], [[0, 4], [0, 1]]));
    expect(Array.from(out.probs)).toEqual([expect.closeTo(0.7), expect.closeTo(0.3), expect.closeTo(0.3), expect.closeTo(0.7)]);
    expect(Array.from(out.embeddings)).toEqual([expect.closeTo(0.6), expect.closeTo(0.8), 0, expect.closeTo(1)]);
  });
  it('takes rows of a reading in the order asked', () => {
    const rows = readingRows(reading([[1, 0], [0, 1], [0.5, 0.5]], [[1], [2], [3]]), [2, 0]);
    expect(Array.from(rows.probs)).toEqual([0.5, 0.5, 1, 0]);
    expect(Array.from(rows.embeddings)).toEqual([3, 1]);
  });
});

describe('rectify', () => {
  const calibration: TableCalibration = {
    imageWidth: 1200,
    imageHeight: 800,
    imageCorners: [[0, 0], [1200, 0], [1200, 800], [0, 800]],
    tableWidthMm: 1200,
    tableHeightMm: 800,
    zones: [
      // Centred table mm: the table spans -600..600 across and -400..400 down.
      { id: 'centre', kind: 'centre', polygonMm: [[-200, -200], [200, -200], [200, 200], [-200, 200]] },
      { id: 'seat-0', kind: 'seat', seat: 0, polygonMm: [[-600, 100], [600, 100], [600, 400], [-600, 400]] },
      { id: 'seat-0/nerts', kind: 'nerts', seat: 0, polygonMm: [[-500, 250], [-400, 250], [-400, 380], [-500, 380]] },
    ],
  };
  it('knows the card width in pixels (1 px per mm here)', () => {
    expect(tablePlane(calibration, 1200, 800).cardWidthPx).toBeCloseTo(63, 3);
    expect(tablePlane(calibration, 600, 400).cardWidthPx).toBeCloseTo(31.5, 3);
  });
  it("knows how square a card can look: 1.4 from above, nearly square at an oblique camera's far side", () => {
    expect(tablePlane(calibration, 1200, 800).minCardAspect).toBeCloseTo(88 / 63, 3);
    // The table's far edge seen much narrower and foreshortened, as by a camera low over the near edge.
    const oblique: TableCalibration = { ...calibration, imageCorners: [[450, 100], [750, 100], [1200, 800], [0, 800]] };
    const plane = tablePlane(oblique, 1200, 800);
    expect(plane.minCardAspect).toBeLessThan(1.2);
    expect(plane.minCardAspect).toBeGreaterThanOrEqual(1);
  });
  it('knows where cards can lie: round the table and its zones, within the frame', () => {
    // The table a third of the frame, a seat zone reaching 100 mm past its near edge.
    const small: TableCalibration = {
      ...calibration,
      imageCorners: [[400, 200], [800, 200], [800, 500], [400, 500]],
      tableWidthMm: 400,
      tableHeightMm: 300,
      zones: [{ id: 'seat-0', kind: 'seat', seat: 0, polygonMm: [[-100, 100], [100, 100], [100, 250], [-100, 250]] }],
    };
    expect(playArea(tablePlane(small, 1200, 800), 1200, 800, 10)).toEqual({ x: 390, y: 190, width: 420, height: 420 });
    // Clipped to the frame.
    expect(playArea(tablePlane(calibration, 1200, 800), 1200, 800, 30)).toEqual({ x: 0, y: 0, width: 1200, height: 800 });
  });
  it('finds the most specific zone', () => {
    const plane = tablePlane(calibration, 1200, 800);
    expect(zoneAt(plane, [600, 300])).toBe('centre');
    expect(zoneAt(plane, [150, 700])).toBe('seat-0/nerts');
    expect(zoneAt(plane, [900, 700])).toBe('seat-0');
    expect(zoneAt(plane, [50, 50])).toBeUndefined();
    // A top-left point is not mirrored into the bottom-right seat (both conventions used to be tried).
    expect(zoneAt(plane, [1000, 600])).toBe('seat-0');
    expect(zoneAt(plane, [100, 150])).toBeUndefined();
  });
});

describe('decodeFrame', () => {
  it('gives clear errors on bad input', async () => {
    await expect(decodeFrame({ kind: 'encoded', data: new Uint8Array([1, 2, 3]) })).rejects.toThrow(/cannot decode frame/);
    await expect(decodeFrame({ kind: 'rgb', data: new Uint8Array(5), width: 2, height: 2 })).rejects.toThrow(/needs 12 bytes/);
    await expect(decodeFrame({ kind: 'rgb', data: new Uint8Array(0), width: 0, height: 2 })).rejects.toThrow(/bad frame size/);
  });
  it('turns grey JPEG and RGBA PNG into 3-channel RGB', async () => {
    const grey = await sharp({ create: { width: 4, height: 3, channels: 3, background: '#808080' } }).greyscale().jpeg().toBuffer();
    expect((await decodeFrame({ kind: 'encoded', data: new Uint8Array(grey) })).data.length).toBe(36);
    const png = await sharp({ create: { width: 4, height: 3, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } } }).png().toBuffer();
    const rgb = await decodeFrame({ kind: 'encoded', data: new Uint8Array(png) });
    expect(Array.from(rgb.data.slice(0, 3))).toEqual([10, 20, 30]);
  });
  it('passes raw RGB through', async () => {
    const data = new Uint8Array(12).fill(7);
    expect(await decodeFrame({ kind: 'rgb', data, width: 2, height: 2 })).toEqual({ data, width: 2, height: 2 });
  });
});

describe('surelyAnotherFace', () => {
  const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  const face = (code: CardCode, confidence: number): Identity => ({ kind: 'face', code, confidence });
  const read = (identity: Identity, fromIndex: Identity | null, corners = quad(169, 99, 266, 257)) => ({ corners, source: 'net' as const, support: 1, zone: undefined, id: { identity, scale: 'full' as const, embedding: new Float32Array(4), fromIndex, readAtMs: 0 } });
  const tenH = read(face('10H', 0.99), face('10H', 0.89), quad(64, 51, 231, 288));
  it('a smaller outline both models name surely as another face is another card, not the bigger one\'s picture frame (IMG_2655\'s KD strip over a 10H)', () => {
    expect(surelyAnotherFace(read(face('KD', 0.99), face('KD', 0.95)), tenH)).toBe(true);
    expect(surelyAnotherFace(read(face('KD', 0.99), face('KD', 0.95)), read({ kind: 'back', design: 'gen-back-3', confidence: 0.9 }, null))).toBe(true);
  });
  it('not when the corner is unsure, names another face or shows no index, or when it names the bigger card\'s own face', () => {
    expect(surelyAnotherFace(read(face('KD', 0.99), face('KD', 0.6)), tenH)).toBe(false);
    expect(surelyAnotherFace(read(face('KD', 0.99), face('QD', 0.95)), tenH)).toBe(false);
    expect(surelyAnotherFace(read(face('KD', 0.99), null), tenH)).toBe(false);
    expect(surelyAnotherFace(read(face('KD', 0.8), face('KD', 0.95)), tenH)).toBe(false);
    expect(surelyAnotherFace(read(face('10H', 0.99), face('10H', 0.95)), tenH)).toBe(false);
  });
});

describe('countsAtFloor', () => {
  const card = (identity: Identity, faintEdge?: true) => ({ id: { identity }, ...(faintEdge ? { faintEdge } : {}) });
  it('counts a reading at its floor, never "no card"; an outline with a faint edge only as a sure face (a book page read as a back, IMG_2507)', () => {
    expect(countsAtFloor(card({ kind: 'face', code: 'QH', confidence: 0.61 }), 0.6)).toBe(true);
    expect(countsAtFloor(card({ kind: 'face', code: 'QH', confidence: 0.59 }), 0.6)).toBe(false);
    expect(countsAtFloor(card({ kind: 'back', design: 'gen-back-3', confidence: 0.8 }), 0.6)).toBe(true);
    expect(countsAtFloor(card({ kind: 'other', confidence: 0.99 }), 0)).toBe(false);
    expect(countsAtFloor(card({ kind: 'face', code: 'QH', confidence: 0.95 }, true), 0.6)).toBe(true);
    expect(countsAtFloor(card({ kind: 'face', code: 'QH', confidence: 0.85 }, true), 0.6)).toBe(false);
    expect(countsAtFloor(card({ kind: 'face', code: 'QH', confidence: 0.85 }, true), 0)).toBe(false);
    expect(countsAtFloor(card({ kind: 'back', design: 'gen-back-3', confidence: 0.99 }, true), 0.6)).toBe(false);
  });
});

describe('dropUnsureOverSure', () => {
  const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  const face = (code: CardCode, confidence: number): Identity => ({ kind: 'face', code, confidence });
  const read = (corners: Quad, identity: Identity, fromIndex: Identity | null) => ({ corners, id: { identity, scale: 'full' as const, embedding: new Float32Array(4), fromIndex } });
  it('drops an unsure face its corner does not name lying mostly over a card both models name surely (photo IMG_2622: a "JS" over a KS)', () => {
    const ks = read(quad(162, 291, 280, 456), face('KS', 0.98), face('KS', 0.9));
    const js = read(quad(182, 264, 284, 419), face('JS', 0.79), face('AS', 0.12));
    const tenC = read(quad(35, 231, 211, 479), face('10C', 1), face('10C', 0.97));
    expect(dropUnsureOverSure([tenC, ks, js])).toEqual([tenC, ks]);
  });
  it('keeps an unsure face its corner names, one beside the sure card, and everything over a card only one model is sure of', () => {
    const ks = read(quad(162, 291, 280, 456), face('KS', 0.98), face('KS', 0.9));
    const agreed = read(quad(182, 264, 284, 419), face('JS', 0.79), face('JS', 0.5));
    const beside = read(quad(270, 291, 390, 456), face('JS', 0.79), null); // 8 % of it over the KS
    expect(dropUnsureOverSure([ks, agreed, beside])).toEqual([ks, agreed, beside]);
    const wholeOnly = read(quad(162, 291, 280, 456), face('KS', 0.98), face('KS', 0.5));
    const over = read(quad(182, 264, 284, 419), face('JS', 0.79), face('AS', 0.12));
    expect(dropUnsureOverSure([wholeOnly, over])).toEqual([wholeOnly, over]);
  });
  it('drops an unsure face, its corner naming it or not, whose outline holds a sure card of another face and is far bigger (photo IMG_2579: a "9S" round a 10S and the folder under it)', () => {
    const tenS = read(quad(75, 165, 170, 285), face('10S', 0.97), face('10S', 0.94));
    const round = read(quad(7, 70, 160, 301), face('9S', 0.62), face('9S', 0.55));
    expect(dropUnsureOverSure([tenS, round])).toEqual([tenS]);
    // A card of the sure card's size lying under it (a strip's hypothesis) is no outline round it.
    const under = read(quad(40, 165, 135, 285), face('9S', 0.62), face('9S', 0.55));
    expect(dropUnsureOverSure([tenS, under])).toEqual([tenS, under]);
  });
});

describe('agreedBelowFloor', () => {
  const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  const face = (code: CardCode, confidence: number): Identity => ({ kind: 'face', code, confidence });
  const read = (corners: Quad, identity: Identity, fromIndex: Identity | null) => ({ corners, id: { identity, fromIndex } });
  it('counts a face both models name alike under the floor (photo IMG_2631: a 10H read 0.57 whole, 0.62 by its corner)', () => {
    const tenH = read(quad(0, 0, 94, 203), face('10H', 0.57), face('10H', 0.62));
    expect(agreedBelowFloor(tenH, [])).toBe(true);
    // Beside a sure card, or over a sure card of its own face (another outline of it), it still counts.
    expect(agreedBelowFloor(tenH, [read(quad(85, 0, 200, 203), face('QD', 0.99), null)])).toBe(true);
    expect(agreedBelowFloor(tenH, [read(quad(5, 5, 99, 208), face('10H', 0.9), null)])).toBe(true);
  });
  it('does not count readings that disagree or are faint, nor a second outline of a sure card read as a look-alike (render_0023: "6D" over a 7D)', () => {
    expect(agreedBelowFloor(read(quad(0, 0, 100, 179), face('AS', 0.47), face('AC', 0.81)), [])).toBe(false);
    expect(agreedBelowFloor(read(quad(0, 0, 100, 179), face('AS', 0.4), face('AS', 0.81)), [])).toBe(false);
    expect(agreedBelowFloor(read(quad(0, 0, 100, 179), { kind: 'other', confidence: 0.9 }, face('AS', 0.81)), [])).toBe(false);
    const sevenD = read(quad(40, 380, 210, 560), face('7D', 0.8), face('7D', 0.7));
    const sixD = read(quad(45, 390, 200, 565), face('6D', 0.59), face('6D', 0.6));
    expect(agreedBelowFloor(sixD, [sevenD])).toBe(false);
  });
});

describe('coveredCards', () => {
  const quad = (x: number): Quad => [[x, 0], [x + 63, 0], [x + 63, 88], [x, 88]];
  const card = (x: number, source: 'single' | 'split', identity: Identity, fromIndex: Identity | null) => ({
    corners: quad(x),
    source,
    support: 1,
    zone: undefined,
    id: { identity, scale: 'full' as const, embedding: new Float32Array(4), fromIndex },
  });
  const face = (code: CardCode, confidence: number): Identity => ({ kind: 'face', code, confidence });
  it('reads a hypothesis lying under a sure card by its index corner, with the strip that shows', () => {
    const top = card(20, 'single', face('KD', 0.95), null);
    // The whole crop shows mostly the KD: read as nothing; its corner shows a clear 9S.
    const under = card(0, 'split', { kind: 'other', confidence: 0.8 }, face('9S', 0.93));
    const [a, b] = coveredCards([top, under], [top], 0.6);
    expect(a).toBeUndefined();
    expect(b).toMatchObject({ id: { identity: { kind: 'face', code: '9S' } }, corners: under.corners });
    expect(b!.visible![1][0]).toBeLessThan(21);
  });
  it('reads a card cut by the frame by the surer of its corner and whole crop where they agree, keeping its in-frame part (render_0003: a 6D)', () => {
    // The grown card (withCutCards): whole crop 6D at 0.70, its corner 6D at 0.95; its in-frame part is set already.
    const inFrame: Quad = [[0, 0], [63, 0], [63, 40], [0, 40]];
    const cut = { ...card(0, 'split', face('6D', 0.7), face('6D', 0.95)), visible: inFrame };
    const [a] = coveredCards([cut], [], 0.6);
    expect(a).toMatchObject({ id: { identity: { code: '6D', confidence: 0.95 } }, visible: inFrame });
    // Read as nothing either way, it is left as read.
    expect(coveredCards([{ ...card(0, 'split', face('6D', 0.3), face('6D', 0.4)), visible: inFrame }], [], 0.6)).toEqual([undefined]);
  });
  it('names a strip that whole crop and corner both name, neither surely alone (photo IMG_2623: a JD under an AS)', () => {
    const top = card(20, 'single', face('AS', 1), null);
    const under = card(0, 'split', face('JD', 0.597), face('JD', 0.49));
    const [, b] = coveredCards([top, under], [top], 0.6);
    expect(b).toMatchObject({ id: { identity: { kind: 'face', code: 'JD', confidence: 0.597 } }, corners: under.corners });
    expect(b!.visible![1][0]).toBeLessThan(21);
    // Two readings naming different faces, or one of them faint, name nothing.
    expect(coveredCards([top, card(0, 'split', face('JD', 0.597), face('QD', 0.49))], [top], 0.6)[1]).toBeUndefined();
    expect(coveredCards([top, card(0, 'split', face('JD', 0.597), face('JD', 0.3))], [top], 0.6)[1]).toBeUndefined();
    expect(agreeingFace(face('JD', 0.5), face('JD', 0.55))).toMatchObject({ code: 'JD', confidence: 0.55 });
    expect(agreeingFace({ kind: 'other', confidence: 0.9 }, face('JD', 0.55))).toBeNull();
  });
  it('counts a card beside a sure one by its strip only where its index corner names another face (lookForStrips)', () => {
    const read = (identity: Identity, fromIndex: Identity | null) => ({ identity, fromIndex });
    // IMG_2601's QC beside a 10D: its corner sure.
    expect(namedByStripCorner(read(face('QC', 0.7), face('QC', 0.86)), new Set(['10D'] as const), 0.6)).toBe(true);
    // IMG_2624's QH under a 9H: whole 0.75, corner 0.44, agreeing.
    expect(namedByStripCorner(read(face('QH', 0.75), face('QH', 0.44)), new Set(['9H'] as const), 0.6)).toBe(true);
    // The corner names the sure card itself, or nothing, or faintly a face the whole does not name.
    expect(namedByStripCorner(read(face('QC', 0.9), face('10D', 0.9)), new Set(['10D'] as const), 0.6)).toBe(false);
    expect(namedByStripCorner(read(face('QC', 0.99), { kind: 'other', confidence: 0.9 }), new Set(['10D'] as const), 0.6)).toBe(false);
    expect(namedByStripCorner(read(face('10S', 0.69), face('10S', 0.28)), new Set(['9S'] as const), 0.6)).toBe(false);
    expect(namedByStripCorner(read(face('KS', 0.9), face('JS', STRIP_AGREEING_FLOOR + 0.1)), new Set(['QD'] as const), 0.6)).toBe(false);
    // Down a cascade, a corner naming any card above it is that card again.
    expect(namedByStripCorner(read(face('9C', 0.9), face('9C', 0.9)), new Set(['10C', '9C'] as const), 0.6)).toBe(false);
    expect(namedByStripCorner(read(face('8S', 0.9), face('8S', 0.9)), new Set(['10C', '9C'] as const), 0.6)).toBe(true);
  });
  it('keeps two cards of a fan under one sure card where its strip\'s ends name two faces, one where they name one (stripRivalGroups)', () => {
    // A sure card at x 100..163; its strip on the left ends at 17 and at 34 pixels.
    const under = (shift: number, underIndex = 0, side = 3): { corners: Quad; under: number; side: number } => ({ corners: [[100 - shift, 0], [163 - shift, 0], [163 - shift, 88], [100 - shift, 88]], under: underIndex, side });
    // A fanned waste: the two ends' corners name a 7C (the card just under) and a KC (under it).
    expect(stripRivalGroups([{ strip: under(17), code: '7C' }, { strip: under(34), code: 'KC' }])).toEqual([0, 1]);
    // Two guesses at one card's width: its corner names it both times, the surer stands.
    expect(stripRivalGroups([{ strip: under(17), code: '7C' }, { strip: under(34), code: '7C' }])).toEqual([0, 0]);
    // Off two sure cards, two hypotheses lying over each other: rivals whatever they read (IMG_2623's JD and a KD).
    expect(stripRivalGroups([{ strip: under(17), code: 'JD' }, { strip: under(20, 1, 1), code: 'KD' }])).toEqual([0, 0]);
    // Off two sure cards far apart: both stand.
    expect(stripRivalGroups([{ strip: under(17), code: 'JD' }, { strip: under(300, 1, 1), code: 'KD' }])).toEqual([0, 1]);
    // Down one cascade: the card under the strip's card, found beyond its strip, lies mostly over it and both stand.
    expect(stripRivalGroups([{ strip: under(17), code: '7C', cascade: '0:3' }, { strip: under(34, 1, 3), code: '6D', cascade: '0:3' }])).toEqual([0, 1]);
    expect(stripRivalGroups([{ strip: under(17), code: '7C', cascade: '0:3' }, { strip: under(34, 1, 3), code: '6D', cascade: '1:3' }])).toEqual([0, 0]);
  });
  it('leaves alone cards found whole, cards nothing covers, corners naming the card on top, and faint corners', () => {
    const top = card(20, 'single', face('KD', 0.95), null);
    const whole = card(0, 'single', { kind: 'other', confidence: 0.8 }, face('9S', 0.93));
    const apart = card(200, 'split', { kind: 'other', confidence: 0.8 }, face('9S', 0.93));
    const sameAsTop = card(0, 'split', face('KD', 0.7), face('KD', 0.95));
    const faint = card(0, 'split', { kind: 'other', confidence: 0.8 }, face('9S', 0.4));
    expect(coveredCards([whole, apart, sameAsTop, faint], [top], 0.6)).toEqual([undefined, undefined, undefined, undefined]);
  });
  it('reports a hypothesis the whole crop reads surely, its corner unsure, with the strip that shows (photo IMG_2616)', () => {
    const top = card(20, 'single', face('QC', 0.99), null);
    const under = card(0, 'split', face('9S', 0.93), face('9S', 0.45));
    const [, b] = coveredCards([top, under], [top], 0.6);
    expect(b).toMatchObject({ id: { identity: { kind: 'face', code: '9S', confidence: 0.93 } }, corners: under.corners });
    expect(b!.visible![1][0]).toBeLessThan(21);
    // Read as the card on top, it is that card again; read unsurely, it is left as read.
    expect(coveredCards([card(0, 'split', face('QC', 0.9), face('9S', 0.3))], [top], 0.6)).toEqual([undefined]);
    expect(coveredCards([card(0, 'split', face('9S', 0.5), face('9S', 0.3))], [top], 0.6)).toEqual([undefined]);
  });
  it('does not take an outline of the strip itself, read as the same face, for a card on top (photo IMG_2616: a JC beside a 10D)', () => {
    const top = card(0, 'single', face('10D', 0.99), null);
    const under = card(40, 'split', face('JC', 0.95), face('JC', 0.94));
    // The strip that shows (x 63..103), outlined by its straight edges and read as JC.
    const strip = { ...card(64, 'single', face('JC', 0.93), face('JC', 0.46)), source: 'lines' as const, corners: [[64, 2], [102, 2], [102, 86], [64, 86]] as Quad };
    const sure = [top, under, strip];
    const [, b] = coveredCards(sure, sure, 0.6);
    expect(b).toMatchObject({ id: { identity: { kind: 'face', code: 'JC' } }, corners: under.corners });
    expect(b!.visible![0][0]).toBeGreaterThan(62);
    // A same-face outline reaching beyond the guess is still a card on top.
    const beyond = { ...strip, corners: [[64, 2], [140, 2], [140, 86], [64, 86]] as Quad };
    expect(coveredCards([top, under, beyond], [top, under, beyond], 0.6)[1]).toBeUndefined();
  });
  it('does not take two guesses at one card under others for a card on top of it (photo IMG_2599: a KC strip beside a JD)', () => {
    const top = card(40, 'single', face('JD', 0.99), null);
    // The KC's size guessed twice by the blob's split: both read it surely, whole and by its corner.
    const guess = card(0, 'split', face('KC', 0.93), face('KC', 0.88));
    const smaller = { ...card(0, 'split', face('KC', 0.97), face('KC', 0.93)), corners: [[0, 4], [54, 4], [54, 80], [0, 80]] as Quad };
    const sure = [top, guess, smaller];
    const [, a, b] = coveredCards(sure, sure, 0.6);
    expect(a).toMatchObject({ id: { identity: { kind: 'face', code: 'KC' } } });
    // Read as one face both ways, the surer reading stays (0.97 whole against 0.93 by its corner).
    expect(b).toMatchObject({ id: { identity: { kind: 'face', code: 'KC', confidence: 0.97 } } });
    expect(a!.visible![1][0]).toBeLessThan(41);
    // A whole outline read as the same face, lying on part of the guess, still makes it that card again.
    const sameOnTop = card(30, 'single', face('KC', 0.98), null);
    expect(coveredCards([guess], [sameOnTop], 0.6)).toEqual([undefined]);
    // An outline holding all of the guess is none on top of it (one drawn round it and its neighbour).
    const roundBoth = { ...card(0, 'single', face('QS', 0.98), null), corners: [[0, 0], [103, 0], [103, 88], [0, 88]] as Quad };
    expect(coveredCards([guess], [top, roundBoth], 0.6)[0]?.visible?.[1][0]).toBeLessThan(41);
  });
  it("does not take a strip's card for a card on a surer one (rendered: the 2D below an AD of one pile)", () => {
    // The AD read surely by the net's outline; the 2D hypothesised from the strip below it (lookForStrips).
    const ad = { ...card(0, 'split', face('AD', 0.98), face('AD', 0.55)), corners: [[0, 0], [48, 0], [48, 48], [0, 48]] as Quad };
    const twoD = { ...card(0, 'split', face('2D', 0.73), face('2D', 0.45)), source: 'strip' as const, corners: [[0, 8], [48, 8], [48, 74], [0, 74]] as Quad };
    expect(coveredCards([ad, twoD], [ad, twoD], 0.6)[0]).toBeUndefined();
    // Another kind of outline read as surely as the strip still covers it.
    expect(coveredCards([ad, twoD], [ad, { ...twoD, source: 'split' as const }], 0.6)[0]?.visible).toBeDefined();
  });
});

describe('sizeTieBreak', () => {
  const quad = (w: number, h: number): Quad => [[0, 0], [w, 0], [w, h], [0, h]];
  it("lets an outline of the frame's card size outweigh a repeat read a hair more surely, and no more", () => {
    const typical = { short: 79 };
    expect(sizeTieBreak(quad(79, 110), typical)).toBeCloseTo(SIZE_TIE_BREAK.tie);
    expect(sizeTieBreak(quad(79 * 1.25, 137), typical)).toBeCloseTo(0);
    expect(sizeTieBreak(quad(79 / 1.25, 88), typical)).toBeCloseTo(0);
    expect(sizeTieBreak(quad(200, 280), typical)).toBe(0);
    // Rendered: a 9D outlined 96 px wide read 0.99, the right-sized one (78 px) 0.98: the right size ranks first.
    expect(0.98 + sizeTieBreak(quad(78, 108), typical)).toBeGreaterThan(0.99 + sizeTieBreak(quad(96, 135), typical));
    // A reading clearly surer keeps its outline whatever its size.
    expect(0.95 + sizeTieBreak(quad(79, 110), typical)).toBeLessThan(0.99 + sizeTieBreak(quad(96, 135), typical));
    expect(sizeTieBreak(quad(0, 0), typical)).toBe(0);
  });
});

describe('onHiddenPart', () => {
  const quad = (x: number, y: number, w: number, h: number): Quad => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
  const read = (corners: Quad, visible?: Quad, confidence = 0.73) => ({ corners, source: 'strip' as const, support: 1, zone: undefined, visible, id: { identity: { kind: 'face' as const, code: '2D' as CardCode, confidence }, scale: 'full' as const, embedding: new Float32Array(4), fromIndex: null } });
  it('tells a card lying on the hidden part of a card under it from one nested where that card shows', () => {
    // The 2D under the AD shows only its lower strip (y 50..74); the AD is read 0.98.
    const under = read(quad(0, 8, 48, 66), quad(0, 50, 48, 24));
    expect(onHiddenPart(under, read(quad(0, 0, 48, 48), undefined, 0.98))).toBe(true);
    expect(onHiddenPart(under, read(quad(10, 52, 20, 20), undefined, 0.98))).toBe(false);
    // A card read whole (nothing reported hidden) hides nothing.
    expect(onHiddenPart(read(quad(0, 8, 48, 66)), read(quad(0, 0, 48, 48), undefined, 0.98))).toBe(false);
    // A piece read less surely than the card stays its picture frame (photo cam_image11: a 9D at 0.99, its top corner's pips 4D at 0.75).
    expect(onHiddenPart(read(quad(0, 0, 100, 140), quad(0, 60, 100, 80), 0.99), read(quad(5, 5, 30, 50), undefined, 0.75))).toBe(false);
  });
});

describe('showsBeside', () => {
  const quad = (x: number, y: number, w: number, h: number): Quad => [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
  const read = (corners: Quad, visible?: Quad) => ({ corners, source: 'split' as const, support: 1, zone: undefined, visible, id: { identity: { kind: 'face' as const, code: 'KC' as CardCode, confidence: 0.9 }, scale: 'full' as const, embedding: new Float32Array(4), fromIndex: null } });
  it('keeps a card read by its corner whose corner shows beside the bigger card, and not a picture frame inside it', () => {
    const bigger = read(quad(40, 0, 70, 98));
    // A strip under the bigger card, its index corner (top left) showing to its left.
    expect(showsBeside(read(quad(0, 4, 54, 76), quad(0, 4, 40, 76)), bigger)).toBe(true);
    // A court card's picture frame: inside the bigger card, corner and all.
    expect(showsBeside(read(quad(50, 10, 50, 70), quad(50, 10, 50, 70)), bigger)).toBe(false);
    // Not read by its corner: left to the nesting rule.
    expect(showsBeside(read(quad(0, 4, 54, 76)), bigger)).toBe(false);
  });
});

describe('turnPolicy', () => {
  // An upright card `length` pixels long (width at a card's 63:88), and the same card lying sideways.
  const card = (length: number): Quad => [[100, 100], [100 + (length * 63) / 88, 100], [100 + (length * 63) / 88, 100 + length], [100, 100 + length]];
  const sideways = (length: number): Quad => [[100, 100], [100, 100 + (length * 63) / 88], [100 - length, 100 + (length * 63) / 88], [100 - length, 100]];
  it('reads cards on counted zones both ways up, whatever their size (the tracker compares their looks)', () => {
    expect(turnPolicy(card(50), 'centre')).toBe('always');
    expect(turnPolicy(card(50), 'seat-2/nerts')).toBe('always');
    expect(turnPolicy(card(300), 'centre')).toBe('always');
  });
  it('reads a small card elsewhere one way up, a large one turned too when unsure', () => {
    expect(turnPolicy(card(50), 'seat-0')).toBe('never');
    expect(turnPolicy(sideways(50), undefined)).toBe('never');
    expect(turnPolicy(card(ONE_WAY_BELOW_PX - 1), 'seat-1/work')).toBe('never');
    expect(turnPolicy(card(ONE_WAY_BELOW_PX), 'seat-1/work')).toBe('when-unsure');
    expect(turnPolicy(sideways(200), undefined)).toBe('when-unsure');
    // 0 turns the size rule off.
    expect(turnPolicy(card(20), 'seat-0', 0)).toBe('when-unsure');
  });
});
