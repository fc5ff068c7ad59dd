/**
 * Model-card measurements that need no labelled folder: held-out face decks (clean art, never
 * trained on, under training-style augmentation) and back enrolment (designs never trained on,
 * enrolled from 5 augmented views each, then read from fresh augmented views).
 */
import { CROP_HEIGHT, CROP_WIDTH } from '../../server/vision/classes';
import type { CardRecognizer } from '../../server/vision/index';
import type { FrameInput } from '../../server/vision/types';
import type { CardCode } from '../../server/game/cards';
import { makeBatch } from './batches';
import { makeRng } from './rng';
import { loadSources, type SourceSet } from './sources';

/** Packs float crops (0..1) as raw RGB frames the recogniser can take as whole-card views. */
function asFrames(crops: Float32Array, count: number): FrameInput[] {
  const size = CROP_WIDTH * CROP_HEIGHT * 3;
  return Array.from({ length: count }, (_, k) => {
    const data = new Uint8Array(size);
    for (let i = 0; i < size; i++) data[i] = Math.round(crops[k * size + i] * 255);
    return { kind: 'rgb' as const, data, width: CROP_WIDTH, height: CROP_HEIGHT };
  });
}

/** Indices of the held-out decks' faces (card art never trained on) in `set`. */
function heldOutFaces(set: SourceSet): number[] {
  return set.entries.flatMap((e, i) => (e.group.startsWith('art:') && e.split === 'heldout' ? [i] : []));
}

/** Top-1 on held-out face decks, each card seen `views` times with augmentation `strength`. */
export async function heldOutDeckAccuracy(recognizer: CardRecognizer, set: SourceSet, views = 4, strength = 0.7): Promise<{ crops: number; accuracy: number; mistakes: string[] }> {
  const indices = heldOutFaces(set).flatMap((i) => Array<number>(views).fill(i));
  const rng = makeRng(99);
  let right = 0;
  const mistakes: string[] = [];
  for (let start = 0; start < indices.length; start += 64) {
    const chunk = indices.slice(start, start + 64);
    const results = await recognizer.identifyCrops(asFrames(makeBatch(set, chunk, rng, strength), chunk.length));
    results.forEach((r, k) => {
      const truth = set.entries[chunk[k]].label;
      if (r.kind === 'face' && r.code === truth) right++;
      else mistakes.push(`${truth}→${r.kind === 'face' ? r.code : r.kind}`);
    });
  }
  return { crops: indices.length, accuracy: right / Math.max(1, indices.length), mistakes };
}

/**
 * Back enrolment: held-out designs enrolled from 5 views, then `tests` fresh views each; and,
 * with those designs enrolled, how often a held-out non-card texture (cloth, wood, skin,
 * clutter; 5 views each) or a held-out face is taken for a back (`falseBackOther`, `falseBackFace`).
 */
export async function backEnrolmentAccuracy(
  recognizer: CardRecognizer,
  set: SourceSet,
  tests = 50,
  strength = 0.7,
): Promise<{ designs: string[]; views: number; accuracy: number; calledBack: number; falseBackOther: number; falseBackFace: number; mistakes: Record<string, number> }> {
  const designs = new Map<string, number>();
  set.entries.forEach((e, i) => {
    if (e.group === 'back' && e.split === 'heldout') designs.set(e.label.slice(5), i);
  });
  const rng = makeRng(7);
  for (const [design, index] of designs) {
    await recognizer.enrollBack(design, asFrames(makeBatch(set, Array(5).fill(index), rng, strength), 5));
  }
  let right = 0;
  let calledBack = 0;
  let total = 0;
  // "truth→what it was read as": another design, "back" (no design named), a face's code, or "other".
  const mistakes: Record<string, number> = {};
  for (const [design, index] of designs) {
    const results = await recognizer.identifyCrops(asFrames(makeBatch(set, Array(tests).fill(index), rng, strength), tests));
    for (const r of results) {
      total++;
      if (r.kind === 'back') calledBack++;
      if (r.kind === 'back' && r.backId === design) right++;
      else {
        const key = `${design}→${r.kind === 'back' ? (r.backId ?? 'back') : r.kind === 'face' ? r.code : r.kind}`;
        mistakes[key] = (mistakes[key] ?? 0) + 1;
      }
    }
  }
  const others = set.entries.flatMap((e, i) => (e.label === 'other' && e.split === 'heldout' ? Array(5).fill(i) : []));
  const faces = heldOutFaces(set).flatMap((i) => [i, i]);
  const backShare = async (indices: number[]) => {
    let backs = 0;
    for (let start = 0; start < indices.length; start += 64) {
      const chunk = indices.slice(start, start + 64);
      backs += (await recognizer.identifyCrops(asFrames(makeBatch(set, chunk, rng, strength), chunk.length))).filter((r) => r.kind === 'back').length;
    }
    return backs / Math.max(1, indices.length);
  };
  return {
    designs: [...designs.keys()],
    views: total,
    accuracy: right / Math.max(1, total),
    calledBack: calledBack / Math.max(1, total),
    falseBackOther: await backShare(others),
    falseBackFace: await backShare(faces),
    mistakes,
  };
}

/**
 * The held-out deck again after enrolling each of its faces from `views` augmented views (the
 * "a deck that reads badly, improved without retraining" path). Enrols faces on `recognizer`:
 * run it last.
 */
export async function enrolledDeckAccuracy(recognizer: CardRecognizer, set: SourceSet, views = 3, strength = 0.7): Promise<{ views: number; crops: number; accuracy: number; mistakes: string[] }> {
  const rng = makeRng(4242);
  // Every view of a code at once: enrolling a face sets its views.
  const byCode = new Map<CardCode, FrameInput[]>();
  for (const i of heldOutFaces(set)) {
    const code = set.entries[i].label as CardCode;
    byCode.set(code, [...(byCode.get(code) ?? []), ...asFrames(makeBatch(set, Array(views).fill(i), rng, strength), views)]);
  }
  for (const [code, frames] of byCode) await recognizer.enrollFace(code, frames);
  return { views, ...(await heldOutDeckAccuracy(recognizer, set, 4, strength)) };
}

/** Loads sources for the suite (same cache as training). */
export function suiteSources(): Promise<SourceSet> {
  return loadSources();
}
