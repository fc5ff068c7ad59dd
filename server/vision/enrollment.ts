/**
 * Few-shot enrolment on the model's L2-normalised embeddings, without retraining:
 * - backs: a player's back design from ≤ 5 views; a crop judged "a back" is named by its
 *   nearest enrolled design (cosine similarity, best view).
 * - faces: a few views of a card from a deck that reads badly; matching crops get extra
 *   evidence for that code.
 */
import { ALL_CARD_CODES, type CardCode } from '../game/cards';

/** Minimum cosine similarity for a back to be named as an enrolled design. */
export const BACK_MATCH_MIN_SIMILARITY = 0.5;
/** Cosine similarity above which an enrolled face view starts to add evidence. */
export const FACE_MATCH_MIN_SIMILARITY = 0.8;

function dot(a: Float32Array, aOffset: number, b: Float32Array, size: number): number {
  let s = 0;
  for (let i = 0; i < size; i++) s += a[aOffset + i] * b[i];
  return s;
}

/** Enrolled prototypes. Pure data + math; the recogniser feeds it embeddings. */
export class EnrollmentStore {
  private readonly backs = new Map<string, Float32Array[]>();
  private readonly faces = new Map<CardCode, Float32Array[]>();

  /** Replaces the views of back design `backId` (each a normalised embedding). */
  setBack(backId: string, embeddings: Float32Array[]): void {
    if (embeddings.length === 0) throw new Error('enrolling a back needs at least one view');
    this.backs.set(backId, embeddings);
  }

  /** Adds views of face `code`. */
  addFace(code: CardCode, embeddings: Float32Array[]): void {
    this.faces.set(code, [...(this.faces.get(code) ?? []), ...embeddings]);
  }

  /** Number of enrolled back designs. */
  get backCount(): number {
    return this.backs.size;
  }

  /** Nearest enrolled back design to an embedding, with its similarity; null when none is close. */
  nearestBack(embedding: Float32Array, offset: number, size: number): { backId: string; similarity: number } | null {
    let best: { backId: string; similarity: number } | null = null;
    for (const [backId, views] of this.backs) {
      for (const view of views) {
        const similarity = dot(embedding, offset, view, size);
        if (!best || similarity > best.similarity) best = { backId, similarity };
      }
    }
    return best && best.similarity >= BACK_MATCH_MIN_SIMILARITY ? best : null;
  }

  /** Extra per-class evidence (indexed like ALL_CARD_CODES) from enrolled faces, or undefined. */
  faceBoost(embedding: Float32Array, offset: number, size: number): Float32Array | undefined {
    if (this.faces.size === 0) return undefined;
    const boost = new Float32Array(ALL_CARD_CODES.length);
    for (const [code, views] of this.faces) {
      let best = -1;
      for (const view of views) best = Math.max(best, dot(embedding, offset, view, size));
      if (best > FACE_MATCH_MIN_SIMILARITY) boost[ALL_CARD_CODES.indexOf(code)] = (best - FACE_MATCH_MIN_SIMILARITY) / (1 - FACE_MATCH_MIN_SIMILARITY);
    }
    return boost;
  }
}
