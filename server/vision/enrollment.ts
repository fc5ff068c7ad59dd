/**
 * Few-shot enrolment on the model's L2-normalised embeddings, without retraining:
 * - backs: a player's back design from ≤ 5 views; a crop judged "a back" is named by its
 *   nearest enrolled design (cosine similarity, best view).
 * - faces: a few views of a card from a deck that reads badly; a crop whose nearest enrolled
 *   face is clearly that one gets extra evidence for its code.
 */
import { ALL_CARD_CODES, type CardCode } from '../game/cards';
import { colourPenalties } from './back-colour';

/** Minimum cosine similarity for a back to be named as an enrolled design. */
export const BACK_MATCH_MIN_SIMILARITY = 0.5;
/**
 * Cosine similarity above which an enrolled face view starts to add evidence: only looks of the
 * same deck come this close (at 0.8, enrolling one deck cost other decks 2 points on cards53).
 */
export const FACE_MATCH_MIN_SIMILARITY = 0.95;
/** Evidence for the nearest enrolled face at similarity 1 with no rival (probabilities sum to 1). */
export const FACE_BOOST_SCALE = 10;

function dot(a: Float32Array, aOffset: number, b: Float32Array, size: number): number {
  let s = 0;
  for (let i = 0; i < size; i++) s += a[aOffset + i] * b[i];
  return s;
}

/** Each enrolled back design's similarity to an embedding: that of its nearest view. */
function designSimilarities(designs: ReadonlyMap<string, Float32Array[]>, embedding: Float32Array, offset: number, size: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [backId, views] of designs) out.set(backId, Math.max(...views.map((view) => dot(embedding, offset, view, size))));
  return out;
}

/** The most similar design (the first enrolled of equals), or null when it is below `floor`. */
function nearestDesign(similarities: ReadonlyMap<string, number>, floor: number): { backId: string; similarity: number } | null {
  let best: { backId: string; similarity: number } | null = null;
  for (const [backId, similarity] of similarities) if (!best || similarity > best.similarity) best = { backId, similarity };
  return best && best.similarity >= floor ? best : null;
}

/**
 * Minimum cosine similarity for a back to be named by the back-look model (models/back-looks):
 * views of one design lie above about 0.8 there, other designs mostly below 0.5.
 */
export const BACK_LOOK_MIN_SIMILARITY = 0.5;

/**
 * Enrolled back designs by the back-look model's embedding (trained to tell designs apart, see
 * datasets/lib/back-embed.ts): names a crop already judged "a back" by its nearest enrolled view.
 */
export class BackLooks {
  private readonly designs = new Map<string, Float32Array[]>();

  /** Replaces the views of design `backId` (each an L2-normalised embedding). */
  set(backId: string, embeddings: Float32Array[]): void {
    if (embeddings.length === 0) throw new Error('enrolling a back needs at least one view');
    this.designs.set(backId, embeddings);
  }

  get size(): number {
    return this.designs.size;
  }

  /** Each enrolled design's similarity to `embedding` (its nearest view). */
  similarities(embedding: Float32Array): Map<string, number> {
    return designSimilarities(this.designs, embedding, 0, embedding.length);
  }

  /** The enrolled design nearest to `embedding` (best view), or null when none is close. */
  nearest(embedding: Float32Array): { backId: string; similarity: number } | null {
    return nearestDesign(this.similarities(embedding), BACK_LOOK_MIN_SIMILARITY);
  }
}

/** What names a back's design: each enrolled design's similarities and colour distance (see nameBackDesign). */
export interface BackDesignEvidence {
  /** Back-look model: cosine similarity to each design's nearest view. */
  looks: ReadonlyMap<string, number>;
  /** Whole-card model: cosine similarity to each design's nearest view. */
  whole: ReadonlyMap<string, number>;
  /** Colour distance to each design's nearest view (back-colour.ts); none: colour not used. */
  colourDistances?: ReadonlyMap<string, number>;
  /** Whether the whole-card model found an enrolled design close enough on its own (BACK_MATCH_MIN_SIMILARITY). */
  wholeMatch: boolean;
}

/**
 * The design a back is named: the one whose views are nearest by both embeddings together (the
 * sum of the two cosine similarities) less what its colour costs it (colourPenalties), named when
 * either embedding finds it close. Measured (session 25): six unseen designs at card size 90.3 %
 * by the whole-card embedding alone, 93.7 % by the back look alone or both. The colour (session
 * 30): both embeddings took kennard's pale blue-grey lattice for a pink lattice on the live
 * table's score sort (look 0.69 against 0.70, whole 0.92 against 0.93), while their colours lay
 * 0.016 and 0.089 away.
 */
export function nameBackDesign({ looks, whole, colourDistances, wholeMatch }: BackDesignEvidence): string | undefined {
  const colour = colourDistances && colourDistances.size > 0 ? colourPenalties(colourDistances) : new Map<string, number>();
  let best: string | undefined;
  let bestScore = -Infinity;
  for (const [backId, look] of looks) {
    const score = look + (whole.get(backId) ?? 0) - (colour.get(backId) ?? 0);
    if (score > bestScore) [best, bestScore] = [backId, score];
  }
  return best !== undefined && (wholeMatch || (looks.get(best) ?? 0) >= BACK_LOOK_MIN_SIMILARITY) ? best : undefined;
}

/**
 * When a whole-card outline the identity model reads as an unsure face (below `maxFace`) or as no
 * card (`other`) is an enrolled back after all (see backByLooks): both embeddings at least this
 * close to one design's views, and the back-look model's nearest design at least `minMargin`
 * closer than its next (views of every design alike mean a texture, not a back).
 *
 * Why: a near-black checked back with a pale oval and a thin cream border, dealt for the score
 * sort, reads at 31x44 pixels as a face at 0.06-0.19 (the 5-player sort, session 32: 4 of 9 of
 * its backs lost). Measured on every outline of 105 frames read whole (2-6 players, two seeds,
 * an oblique camera, unseen art; 10,386 reads): of 98 whole-card outlines of backs read as an
 * unsure face, these thresholds take 77 for their own deck, none for another; of 3,697 faces
 * and 2,013 outlines on no card, one (a stock's edge, on a waste). Split hypotheses (part of a
 * stock or a cascade) reach such similarities more often and are not judged so.
 *
 * Session 34: the identity model trained with wrong outlines labelled `other` (fragments) calls
 * many a back's slightly shifted outline `other`, and reads backs as faces above the old floor
 * (the 6-player sort: a near-black back as a KD at 0.43; the seed-2 sort: red lattices as a 2D
 * at 0.65-0.74). Same thresholds, measured again on every whole-card outline of 13 hands' frames
 * read whole (2-6 players, seeds 1-3, oblique, unseen art; 3,158 reads): of 318 `other` reads of
 * backs 196 are taken for their own deck (none for another), of 152 backs read as a face below
 * 0.8, 85; none of 449 `other` reads of no card or 32 of faces, none of 244 faces below 0.8.
 */
export const LOOK_RESCUE: LookRule = { minLook: 0.85, minWhole: 0.85, minMargin: 0.15, maxFace: 0.8 };

/** Thresholds of a back named by its looks (LOOK_RESCUE, OTHER_RESCUE_UNCALIBRATED). */
export interface LookRule {
  readonly minLook: number;
  readonly minWhole: number;
  readonly minMargin: number;
  readonly maxFace: number;
}

/**
 * LOOK_RESCUE for a crop the identity model reads as no card (`other`) on a frame without a
 * calibration (single crops, `identifyCrops`; an uncalibrated table): the back-look model's
 * nearest design must lead the next by 0.3. Why: the backs suite's near-black gen-43 read as
 * `other` at 0.56–0.92 in 5 of its 50 views (session 49), and LOOK_RESCUE's margin of 0.15
 * took them for gen-43 (look margins 0.33–0.48) but also 6 of the 200 held-out textures for a
 * back (margins 0.16–0.25). Measured on three seeds of the suite's augmentation (7, 8, 9): with a
 * margin of 0.3, 7 views rescued, all right, no texture taken for a back; seed 8's other
 * rescues (margins 0.25–0.29) and its 4 textures (0.17–0.21) stay `other`.
 */
export const OTHER_RESCUE_UNCALIBRATED: LookRule = { ...LOOK_RESCUE, minMargin: 0.3 };

/**
 * Whether a whole-card outline read as `identity` is looked at as a possible enrolled back (see
 * LOOK_RESCUE). `other` reads only with `others`: on a calibrated table, where that was measured
 * and the score sort drops backs on bare cloth. (Single-card crops, `identifyCrops`: 2.5 % of the
 * backs suite's held-out textures became a back so, against none before; without a calibration
 * they are looked at by OTHER_RESCUE_UNCALIBRATED.) With `others` too, a
 * face however sure that only its index corner made a face (`byIndex`): an unseen back design
 * whose pattern the index model read as a KD at 0.85, for a whole score sort (session 35).
 */
export function mayBeBack(identity: { kind: 'face' | 'back' | 'other'; confidence: number; byIndex?: true }, others: boolean, rule: LookRule = LOOK_RESCUE): boolean {
  if (identity.kind === 'other') return others;
  return identity.kind === 'face' && (identity.confidence < rule.maxFace || (others && identity.byIndex === true));
}

/**
 * The enrolled design the back-look model is sure of (see LOOK_RESCUE): the nearest, at least
 * `minLook` close and `minMargin` ahead of the next design (with one design, no next to beat), with
 * its similarity; null when there is none such.
 */
function sureLook(looks: ReadonlyMap<string, number>, rule: LookRule): { backId: string; similarity: number } | null {
  let best: string | undefined;
  let [first, second] = [-Infinity, -Infinity];
  for (const [backId, look] of looks) {
    if (look > first) [best, first, second] = [backId, look, first];
    else if (look > second) second = look;
  }
  return best !== undefined && first >= rule.minLook && first - second >= rule.minMargin ? { backId: best, similarity: first } : null;
}

/**
 * The enrolled back design an unsure face or `other` read is, by both embeddings (see LOOK_RESCUE), with its
 * confidence (the lower of the two similarities), or null when it is no such back.
 */
export function backByLooks(looks: ReadonlyMap<string, number>, whole: ReadonlyMap<string, number>, rule: LookRule = LOOK_RESCUE): { backId: string; confidence: number } | null {
  const look = sureLook(looks, rule);
  const wholeSimilarity = look ? (whole.get(look.backId) ?? -Infinity) : -Infinity;
  if (!look || wholeSimilarity < rule.minWhole) return null;
  return { backId: look.backId, confidence: Math.min(look.similarity, wholeSimilarity) };
}

/**
 * How surely a crop the identity model reads as a back (at `confidence`) is one: where the
 * back-look model is sure of one enrolled design (sureLook), that similarity if higher. Why: the
 * 6-player sort's near-black checked backs read as backs at 0.40-0.55 only, and two of nine were
 * never counted. Measured on every back read of 13 hands' frames read whole (session 34): of 125
 * read below 0.7, 64 are so raised, 63 of them backs of that deck and one a player's own stock
 * outlined off-centre.
 */
export function backConfidence(confidence: number, looks: ReadonlyMap<string, number>, rule: LookRule = LOOK_RESCUE): number {
  const look = sureLook(looks, rule);
  return look ? Math.max(confidence, look.similarity) : confidence;
}

/** Enrolled prototypes. Pure data + math; the recogniser feeds it embeddings. */
export class EnrollmentStore {
  /** Each back design's views as shown, then their middles (see `setBack`). */
  private readonly backs = new Map<string, Float32Array[]>();
  /** Each back design's views as shown only. */
  private readonly wholeBacks = new Map<string, Float32Array[]>();
  private readonly faces = new Map<CardCode, Float32Array[]>();

  /**
   * Replaces the views of back design `backId` (each a normalised embedding). `middles` (the
   * views' middles, no card edge) help name a back whose outline lies inside the card, but only
   * name: as evidence that a crop is a back at all they would take any texture for one.
   */
  setBack(backId: string, embeddings: Float32Array[], middles: Float32Array[] = []): void {
    if (embeddings.length === 0) throw new Error('enrolling a back needs at least one view');
    this.wholeBacks.set(backId, embeddings);
    this.backs.set(backId, [...embeddings, ...middles]);
  }

  /** Sets the views face `code` is recognised from (replacing earlier ones); none forgets it. */
  setFace(code: CardCode, embeddings: Float32Array[]): void {
    if (embeddings.length === 0) this.faces.delete(code);
    else this.faces.set(code, embeddings);
  }

  /** Number of enrolled back designs. */
  get backCount(): number {
    return this.backs.size;
  }

  /** Each enrolled back design's similarity to an embedding (its nearest view or view middle): which design a back is. */
  backSimilarities(embedding: Float32Array, offset: number, size: number): Map<string, number> {
    return designSimilarities(this.backs, embedding, offset, size);
  }

  /** Nearest enrolled back design to an embedding, with its similarity; null when none is close. */
  nearestBack(embedding: Float32Array, offset: number, size: number): { backId: string; similarity: number } | null {
    return nearestDesign(this.backSimilarities(embedding, offset, size), BACK_MATCH_MIN_SIMILARITY);
  }

  /** The similarity of the nearest enrolled back view as shown (middles left out): whether a crop is a back at all. */
  backViewSimilarity(embedding: Float32Array, offset: number, size: number): number {
    return Math.max(0, ...designSimilarities(this.wholeBacks, embedding, offset, size).values());
  }

  /** Extra per-class evidence (indexed like ALL_CARD_CODES) from enrolled faces, or undefined. */
  faceBoost(embedding: Float32Array, offset: number, size: number): Float32Array | undefined {
    if (this.faces.size === 0) return undefined;
    // Only the enrolled face nearest the crop gets evidence, and only by how much it beats the
    // next nearest: views of a 7S and a 7C of one deck look much alike, and evidence for both
    // changes nothing (measured, see the model card).
    let nearest: CardCode | null = null;
    let first = -1;
    let second = -1;
    for (const [code, views] of this.faces) {
      let best = -1;
      for (const view of views) best = Math.max(best, dot(embedding, offset, view, size));
      if (best > first) {
        second = first;
        first = best;
        nearest = code;
      } else if (best > second) second = best;
    }
    const boost = new Float32Array(ALL_CARD_CODES.length);
    const floor = Math.max(FACE_MATCH_MIN_SIMILARITY, second);
    if (nearest && first > floor) boost[ALL_CARD_CODES.indexOf(nearest)] = (FACE_BOOST_SCALE * (first - floor)) / (1 - FACE_MATCH_MIN_SIMILARITY);
    return boost;
  }
}
