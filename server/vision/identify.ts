/**
 * Identity stage: a batch of upright card crops → class probabilities and L2-normalised
 * embeddings from the CNN, then a decision (face code, back, or reject) per crop.
 * Tensor shapes: input [N, CROP_HEIGHT, CROP_WIDTH, 3] float 0..1 → probs [N, C], embedding [N, E].
 */
import * as tf from '@tensorflow/tfjs';
import { ALL_CARD_CODES, parseCard, RANKS, SUITS, type CardCode } from '../game/cards';
import type { CardObservation } from './types';
import type { CnnHeads, RunCnn } from './inference';
import {
  CROP_HEIGHT,
  CROP_WIDTH,
  FIRST_BACK_CLASS,
  INDEX_HEIGHT,
  INDEX_RANK_CLASSES,
  INDEX_SUIT_CLASSES,
  INDEX_WIDTH,
  NO_RANK,
  NO_SUIT,
  OTHER_CLASS,
  classMeaning,
} from './classes';

/** Raw model outputs for a batch, as plain arrays (no tensors escape this stage). */
export interface IdentityOutputs {
  count: number;
  numClasses: number;
  embeddingSize: number;
  probs: Float32Array;
  /** L2-normalised embeddings, row-major. */
  embeddings: Float32Array;
}

/** One reading of a batch: probabilities and raw (not yet normalised) embeddings, row-major. */
export interface IdentityReading {
  count: number;
  numClasses: number;
  embeddingSize: number;
  probs: Float32Array;
  embeddings: Float32Array;
}

/**
 * Reads `count` crops packed in `crops` once, each upright or (`turned`) turned 180 degrees.
 * Frees every tensor it makes.
 */
export async function readCrops(model: tf.LayersModel, crops: Float32Array, count: number, turned = false): Promise<IdentityReading> {
  if (count === 0) return { count, numClasses: 0, embeddingSize: 0, probs: new Float32Array(0), embeddings: new Float32Array(0) };
  if (crops.length < count * CROP_WIDTH * CROP_HEIGHT * 3) throw new Error('crop buffer too small for the batch');
  const [probsT, embT] = tf.tidy(() => {
    const input = tf.tensor4d(crops.subarray(0, count * CROP_WIDTH * CROP_HEIGHT * 3), [count, CROP_HEIGHT, CROP_WIDTH, 3]);
    return model.predict(turned ? tf.reverse(input, [1, 2]) : input) as tf.Tensor[];
  });
  try {
    const [probs, embeddings] = await Promise.all([probsT.data() as Promise<Float32Array>, embT.data() as Promise<Float32Array>]);
    return { count, numClasses: probsT.shape[1] as number, embeddingSize: embT.shape[1] as number, probs, embeddings };
  } finally {
    probsT.dispose();
    embT.dispose();
  }
}

/**
 * The outputs of one reading, or of two readings of the same crops averaged (probabilities
 * averaged, embeddings summed), with L2-normalised embeddings.
 */
export function identityOutputs(first: IdentityReading, second?: IdentityReading): IdentityOutputs {
  const { count, numClasses, embeddingSize } = first;
  const probs = Float32Array.from(first.probs);
  const embeddings = Float32Array.from(first.embeddings);
  if (second) {
    for (let i = 0; i < probs.length; i++) probs[i] = (probs[i] + second.probs[i]) / 2;
    for (let i = 0; i < embeddings.length; i++) embeddings[i] += second.embeddings[i];
  }
  for (let k = 0; k < count; k++) {
    let norm = 0;
    for (let j = k * embeddingSize; j < (k + 1) * embeddingSize; j++) norm += embeddings[j] * embeddings[j];
    const scale = 1 / (Math.sqrt(norm) + 1e-6);
    for (let j = k * embeddingSize; j < (k + 1) * embeddingSize; j++) embeddings[j] *= scale;
  }
  return { count, numClasses, embeddingSize, probs, embeddings };
}

/** The rows `rows` of a reading, in that order. */
export function readingRows(reading: IdentityReading, rows: readonly number[]): IdentityReading {
  const { numClasses, embeddingSize } = reading;
  const probs = new Float32Array(rows.length * numClasses);
  const embeddings = new Float32Array(rows.length * embeddingSize);
  rows.forEach((row, k) => {
    probs.set(reading.probs.subarray(row * numClasses, (row + 1) * numClasses), k * numClasses);
    embeddings.set(reading.embeddings.subarray(row * embeddingSize, (row + 1) * embeddingSize), k * embeddingSize);
  });
  return { count: rows.length, numClasses, embeddingSize, probs, embeddings };
}

/** What one crop is, before enrolment refines backs and faces. */
export type Identity =
  | {
      kind: 'face';
      code: CardCode;
      confidence: number;
      alternatives?: FaceAlternative[];
      /** A face by its index corner alone: the whole-card model did not take the crop for a face (a covered card, or a back whose pattern reads as an index). */
      byIndex?: true;
    }
  | { kind: 'back'; confidence: number; design: string }
  | { kind: 'other'; confidence: number };

/**
 * One of the faces a crop most likely shows, with P(this face | a face). The recogniser names
 * the best; the tracker weighs the runners-up against what the game allows there (a card on a
 * foundation is almost always the next in suit).
 */
export type FaceAlternative = NonNullable<CardObservation['alternatives']>[number];

/** How many faces a face identity lists (best first), and the least share listed. */
export const ALTERNATIVES = { count: 4, minShare: 0.02 } as const;

/** Rank and suit class of each face class index, for combining with the index reading. */
const FACE_RANK = ALL_CARD_CODES.map((code) => RANKS.indexOf(parseCard(code).rank));
const FACE_SUIT = ALL_CARD_CODES.map((code) => SUITS.indexOf(parseCard(code).suit));

/** Evidence besides the whole-card model's probabilities, all optional. */
export interface ExtraEvidence {
  /** Enrolled-face evidence per face class index (see EnrollmentStore.faceBoost). */
  faceBoost?: Float32Array;
  /** Enrolled-back evidence, 0..1, added to the summed back probability (see backEvidence). */
  backBoost?: number;
  /** The index-corner model's reading. */
  index?: IndexReading;
  fusion?: IndexFusion;
}

/**
 * Decides between the 52 faces, "a back" (all back-design classes summed) and reject.
 * The whole-card model decides whether the crop is a face, a back or neither, and how sure it is
 * (the confidence floors compare against that); enrolled faces and backs add to its evidence.
 * With an `index` reading (the corner model), which face is chosen by
 * p(face)^wholeCardWeight x p(rank) x p(suit); and a clearly visible index makes the card a face
 * even when the whole crop (a covered card) looks otherwise.
 */
export function decideIdentity(
  probs: Float32Array,
  offset: number,
  numClasses: number,
  names: readonly string[],
  { faceBoost, backBoost = 0, index, fusion = DEFAULT_INDEX_FUSION }: ExtraEvidence = {},
): Identity {
  const faces = faceEvidence(probs, offset, faceBoost);
  const whole = decideWholeCard(probs, offset, numClasses, names, faces, backBoost);
  if (!index) return whole;
  const fused = fusedFace(faces, index, fusion);
  // P(a face) x P(this face | a face), the second from the fused reading.
  const { alternatives } = fused;
  if (whole.kind === 'face') return { kind: 'face', code: fused.code, confidence: Math.min(1, faces.mass * fused.share), alternatives };
  if (index.indexness >= fusion.faceOverride && fused.share >= OVERRIDE_MIN_SHARE) return { kind: 'face', code: fused.code, confidence: Math.min(1, index.indexness * fused.share), alternatives, byIndex: true };
  return whole;
}

/**
 * A corner that looks like an index overrides the whole crop only where it names one face: that
 * face's share of the fused reading at least this. A lattice back's grid corner reads as a rank
 * (a "4" at 0.95) with no clear suit (hearts 0.37); the corner's indexness alone made it a face
 * (session 59, when the index model had learned that covered corners show none).
 */
export const OVERRIDE_MIN_SHARE = 0.5;

/**
 * A whole card in view whose corners show no index and whose picture is like no face is not one
 * of the 52 (a joker, an advertising card). Only for views known to show a whole card (crops):
 * in a frame a face's corners may be under another card or a hand.
 * Chosen on cards53 train (40 crops a class): 33 of 40 jokers rejected, 8 of 2,080 faces lost.
 */
export const INDEXLESS_REJECT = { maxIndexness: 0.5, maxConfidence: 0.25 } as const;

/** `identity` of a whole-card view, or a reject when INDEXLESS_REJECT says it is no standard face. */
export function rejectIndexless(identity: Identity, index: IndexReading | undefined, rule = INDEXLESS_REJECT): Identity {
  if (identity.kind !== 'face' || !index) return identity;
  if (index.indexness >= rule.maxIndexness || identity.confidence >= rule.maxConfidence) return identity;
  return { kind: 'other', confidence: 1 - identity.confidence };
}

/** Cosine similarity to the nearest enrolled back view from which it starts to count as evidence. */
export const BACK_EVIDENCE_FROM = 0.9;

/**
 * Enrolled-back evidence from the similarity of a crop's embedding to the nearest enrolled back
 * view: 0 up to BACK_EVIDENCE_FROM, rising to 1 at identical. Other crops (cloth, clutter) reach
 * 0.9 now and then; backs of an enrolled design almost always do (see the model card).
 */
export function backEvidence(similarity: number): number {
  return Math.max(0, (similarity - BACK_EVIDENCE_FROM) / (1 - BACK_EVIDENCE_FROM));
}

/** The whole-card model's evidence for each of the 52 faces (probability + enrolled boost), its sum and the best face. */
interface FaceEvidence {
  scores: Float64Array;
  mass: number;
  best: number;
}

function faceEvidence(probs: Float32Array, offset: number, faceBoost?: Float32Array): FaceEvidence {
  const scores = new Float64Array(OTHER_CLASS);
  let mass = 0;
  let best = 0;
  for (let c = 0; c < OTHER_CLASS; c++) {
    scores[c] = probs[offset + c] + (faceBoost ? faceBoost[c] : 0);
    mass += scores[c];
    if (scores[c] > scores[best]) best = c;
  }
  return { scores, mass, best };
}

/**
 * The whole-card model's own decision: face, back or reject by which has the most probability
 * in all (the 52 faces summed, like the back designs), and for a face P(a face) x P(this face |
 * a face), so a real card whose probability is spread over look-alike faces is still a face.
 */
function decideWholeCard(probs: Float32Array, offset: number, numClasses: number, names: readonly string[], faces: FaceEvidence, backBoost: number): Identity {
  let backSum = backBoost;
  let bestBack = FIRST_BACK_CLASS;
  for (let c = FIRST_BACK_CLASS; c < numClasses; c++) {
    backSum += probs[offset + c];
    if (probs[offset + c] > probs[offset + bestBack]) bestBack = c;
  }
  const other = probs[offset + OTHER_CLASS];
  if (other >= faces.mass && other >= backSum) return { kind: 'other', confidence: other };
  if (backSum > faces.mass) {
    const meaning = classMeaning(bestBack, names);
    return { kind: 'back', confidence: Math.min(1, backSum), design: meaning.kind === 'back' ? meaning.design : 'unknown' };
  }
  const meaning = classMeaning(faces.best, names);
  if (meaning.kind !== 'face') throw new Error('face class index out of range');
  const shares = Array.from(faces.scores, (score) => score / (faces.mass || 1));
  return { kind: 'face', code: meaning.code, confidence: Math.min(1, faces.scores[faces.best]), alternatives: topFaces(shares) };
}

/** The likeliest faces of a distribution over the 52 (shares summing to 1), best first (see ALTERNATIVES). */
export function topFaces(shares: ArrayLike<number>): FaceAlternative[] {
  const order = Array.from({ length: OTHER_CLASS }, (_, c) => c).sort((a, b) => shares[b] - shares[a]);
  return order
    .slice(0, ALTERNATIVES.count)
    .filter((c, rank) => rank === 0 || shares[c] >= ALTERNATIVES.minShare)
    .map((c) => ({ code: ALL_CARD_CODES[c], p: Math.round(shares[c] * 1000) / 1000 }));
}

/**
 * A card read from its index corner alone: for a card mostly under another, whose whole crop
 * shows the card on top. A face only when a corner clearly shows an index (at least
 * `fusion.faceOverride` sure); its confidence is that sureness times the face's share.
 */
export function decideFromIndex(index: IndexReading, fusion: IndexFusion = DEFAULT_INDEX_FUSION): Identity | null {
  if (index.indexness < fusion.faceOverride) return null;
  const uniform: FaceEvidence = { scores: new Float64Array(OTHER_CLASS).fill(1), mass: OTHER_CLASS, best: 0 };
  const { code, share, alternatives } = fusedFace(uniform, index, { ...fusion, wholeCardWeight: 0 });
  return { kind: 'face', code, confidence: Math.min(1, index.indexness * share), alternatives };
}

/** The best face by whole card and index corner together, and its share of the fused face scores. */
function fusedFace(faces: FaceEvidence, index: IndexReading, fusion: IndexFusion): { code: CardCode; share: number; alternatives: FaceAlternative[] } {
  let best = 0;
  let bestScore = -1;
  let sum = 0;
  const scores = new Float64Array(OTHER_CLASS);
  for (let c = 0; c < OTHER_CLASS; c++) {
    const face = faces.scores[c] / (faces.mass || 1);
    // A corner that hardly shows an index says little: blend its reading towards uniform.
    const rank = 1 / NO_RANK + index.indexness * (index.rank[FACE_RANK[c]] - 1 / NO_RANK);
    const suit = 1 / NO_SUIT + index.indexness * (index.suit[FACE_SUIT[c]] - 1 / NO_SUIT);
    const score = Math.pow(face + 1e-4, fusion.wholeCardWeight) * (rank + 1e-4) * (suit + 1e-4);
    scores[c] = score;
    sum += score;
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return { code: ALL_CARD_CODES[best], share: bestScore / sum, alternatives: topFaces(scores.map((score) => score / sum)) };
}

// ------------------------------------------------------------------ the index-corner reader

/** Index model outputs for a batch of cards: two corners per card (top-left, bottom-right turned). */
export interface IndexOutputs {
  count: number;
  /** [count * 2, INDEX_RANK_CLASSES] probabilities, corner-major per card. */
  rank: Float32Array;
  /** [count * 2, INDEX_SUIT_CLASSES] probabilities. */
  suit: Float32Array;
}

/** Index readings from a model's heads for `count` cards' corner pairs (see CnnHeads). */
export function indexOutputsOf(count: number, { heads }: CnnHeads): IndexOutputs {
  return { count, rank: heads[0], suit: heads[1] };
}

/** The index model's rank and suit probabilities for `images` corner images packed in `corners`. */
async function readCornerImages(model: tf.LayersModel, corners: Float32Array, images: number): Promise<[Float32Array, Float32Array]> {
  if (images === 0) return [new Float32Array(0), new Float32Array(0)];
  const size = INDEX_WIDTH * INDEX_HEIGHT * 3;
  if (corners.length < images * size) throw new Error('corner buffer too small for the batch');
  const [rankT, suitT] = tf.tidy(() => model.predict(tf.tensor4d(corners.subarray(0, images * size), [images, INDEX_HEIGHT, INDEX_WIDTH, 3])) as tf.Tensor[]);
  try {
    return (await Promise.all([rankT.data(), suitT.data()])) as [Float32Array, Float32Array];
  } finally {
    rankT.dispose();
    suitT.dispose();
  }
}

/** The whole-card model's reading from a model's heads (see CnnHeads). */
export function identityReadingOf(images: number, { heads, widths }: CnnHeads): IdentityReading {
  return { count: images, numClasses: widths[0], embeddingSize: widths[1], probs: heads[0], embeddings: heads[1] };
}

/** Runs batches on this thread with the given models (the index model may be missing). */
export function localCnn(models: { identity: tf.LayersModel; index: tf.LayersModel | null; identityLive?: tf.LayersModel | null; indexLive?: tf.LayersModel | null }): RunCnn {
  return async (batch) => {
    if (batch.model === 'identity' || batch.model === 'identity-live') {
      const model = batch.model === 'identity' ? models.identity : models.identityLive;
      if (!model) throw new Error('no live-size identity model loaded');
      const reading = await readCrops(model, batch.data, batch.images, batch.turned);
      return { heads: [reading.probs, reading.embeddings], widths: [reading.numClasses, reading.embeddingSize] };
    }
    const model = batch.model === 'index' ? models.index : models.indexLive;
    if (!model) throw new Error(`no ${batch.model === 'index' ? 'index-corner' : 'live-size index-corner'} model loaded`);
    const heads = await readCornerImages(model, batch.data, batch.images);
    return { heads, widths: [INDEX_RANK_CLASSES, INDEX_SUIT_CLASSES] };
  };
}

/** What the two corners of one card say: rank and suit distributions and whether an index shows at all. */
export interface IndexReading {
  /** Probability of each rank (RANKS order), given an index shows. */
  rank: Float64Array;
  /** Probability of each suit (SUITS order), given an index shows. */
  suit: Float64Array;
  /** How sure the better corner is that it shows an index (0..1). */
  indexness: number;
}

/**
 * Merges card `card`'s two corner readings, each weighted by how much it looks like an index: a
 * corner covered by another card or a hand says "no index" and drops out.
 */
export function readIndex(outputs: IndexOutputs, card: number): IndexReading {
  const rank = new Float64Array(NO_RANK);
  const suit = new Float64Array(NO_SUIT);
  let indexness = 0;
  let total = 0;
  for (let corner = 0; corner < 2; corner++) {
    const r = (card * 2 + corner) * INDEX_RANK_CLASSES;
    const s = (card * 2 + corner) * INDEX_SUIT_CLASSES;
    const weight = (1 - outputs.rank[r + NO_RANK]) * (1 - outputs.suit[s + NO_SUIT]);
    indexness = Math.max(indexness, weight);
    total += weight;
    for (let k = 0; k < NO_RANK; k++) rank[k] += weight * outputs.rank[r + k];
    for (let k = 0; k < NO_SUIT; k++) suit[k] += weight * outputs.suit[s + k];
  }
  const rankSum = rank.reduce((a, b) => a + b, 0) || 1;
  const suitSum = suit.reduce((a, b) => a + b, 0) || 1;
  for (let k = 0; k < NO_RANK; k++) rank[k] /= rankSum;
  for (let k = 0; k < NO_SUIT; k++) suit[k] /= suitSum;
  return { rank, suit, indexness: total > 0 ? indexness : 0 };
}

/** How the whole-card and index readings are combined (see decideIdentity). */
export interface IndexFusion {
  /** Exponent on the whole-card face probability: lower trusts the corner more (default 1). */
  wholeCardWeight: number;
  /** A card whose corner is at least this sure it shows an index is a face, whatever the whole crop says (default 0.9). */
  faceOverride: number;
}

/** Tuned on cards53 valid and the real table photos (see models/MODEL_CARD.md). */
export const DEFAULT_INDEX_FUSION: IndexFusion = { wholeCardWeight: 1, faceOverride: 0.9 };

/**
 * The back-look model's embedding of each of `count` packed crops, L2-normalised, packed
 * ([count, size of its output]; see datasets/lib/back-embed.ts). Frees its tensors.
 */
export async function readBackLooks(model: tf.LayersModel, crops: Float32Array, count: number): Promise<Float32Array> {
  const out = tf.tidy(() => {
    const e = model.predict(tf.tensor4d(crops, [count, CROP_HEIGHT, CROP_WIDTH, 3])) as tf.Tensor;
    return tf.div(e, tf.add(tf.norm(e, 'euclidean', 1, true), 1e-8));
  });
  try {
    return (await out.data()) as Float32Array;
  } finally {
    out.dispose();
  }
}
