import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { buildBackEmbedModel, contrastiveLoss, designCrops, enrolmentAccuracy } from '../../datasets/lib/back-embed';
import { generatedBackSvg } from '../../datasets/lib/generated-art';
import { backUnder } from '../../datasets/lib/live-backs';
import type { CardTruth } from '../../server/sim/render/index';
import type { Quad } from '../../server/vision/types';
import { makeRng } from '../../datasets/lib/rng';
import { SOURCE_HEIGHT, SOURCE_WIDTH } from '../../datasets/lib/sources';
import { BACK_EMBED_SIZE, CROP_HEIGHT, CROP_WIDTH } from '../../server/vision/classes';
import sharp from 'sharp';

/** The loss by hand, for a small batch (plain arrays). */
function byHand(labels: number[], e: number[][], temperature = 0.1): number {
  const unit = e.map((v) => v.map((x) => x / Math.hypot(...v)));
  const sim = (a: number, b: number) => unit[a].reduce((s, x, k) => s + x * unit[b][k], 0) / temperature;
  let total = 0;
  labels.forEach((label, i) => {
    const others = labels.map((_, j) => j).filter((j) => j !== i);
    const all = Math.log(others.reduce((s, j) => s + Math.exp(sim(i, j)), 0));
    const same = Math.log(others.filter((j) => labels[j] === label).reduce((s, j) => s + Math.exp(sim(i, j)), 0));
    total += all - same;
  });
  return total / labels.length;
}

describe('back-look model', () => {
  it('contrastive loss matches a hand computation, and is low when views of a design lie together', () => {
    const labels = [0, 0, 1, 1];
    const apart = [[1, 0, 0], [0.9, 0.1, 0], [0, 1, 0], [0.1, 0.9, 0.1]];
    const mixed = [[1, 0, 0], [0, 1, 0], [0.9, 0.1, 0], [0.1, 0.9, 0.1]];
    // Targets ride in column 0 of an [N, D] tensor (Keras checks targets against the output's shape).
    const target = (ls: number[]) => tf.tensor2d(ls.map((l) => [l, 0, 0]));
    const good = contrastiveLoss(target(labels), tf.tensor2d(apart));
    const bad = contrastiveLoss(target(labels), tf.tensor2d(mixed));
    expect(good.dataSync()[0]).toBeCloseTo(byHand(labels, apart), 4);
    expect(bad.dataSync()[0]).toBeCloseTo(byHand(labels, mixed), 4);
    expect(good.dataSync()[0]).toBeLessThan(0.05);
    expect(bad.dataSync()[0]).toBeGreaterThan(5);
    tf.dispose([good, bad]);
  });

  it('builds an embedding of the recogniser crop, and its gradient flows from the loss', () => {
    const model = buildBackEmbedModel();
    expect(model.outputs[0].shape).toEqual([null, BACK_EMBED_SIZE]);
    const x = tf.randomUniform([4, CROP_HEIGHT, CROP_WIDTH, 3]);
    const y = tf.tensor2d([0, 0, 1, 1].map((l) => [l, ...Array(BACK_EMBED_SIZE - 1).fill(0)]));
    const { grads } = tf.variableGrads(() => contrastiveLoss(y, model.apply(x, { training: true }) as tf.Tensor));
    const norms = Object.values(grads).map((g) => g.norm().dataSync()[0]);
    expect(norms.some((n) => n > 0)).toBe(true);
    tf.dispose([x, y, ...Object.values(grads)]);
    model.dispose();
    // (About 20 s on the cpu backend here; 64 s, past the default 60, with a benchmark beside it.)
  }, 180_000);

  it('scores enrolment as the recogniser decides: an embedding of the picture itself tells generated designs apart', async () => {
    const designs = await Promise.all([3, 5, 8].map(async (seed) => new Uint8Array(await sharp(Buffer.from(generatedBackSvg(seed))).resize(SOURCE_WIDTH, SOURCE_HEIGHT, { fit: 'fill' }).removeAlpha().raw().toBuffer())));
    // A stand-in "model": the mean colour of the crop's middle, normalised (generated designs differ in colour).
    const embed = async (crops: Float32Array, count: number) => {
      const out = new Float32Array(count * BACK_EMBED_SIZE);
      const size = CROP_WIDTH * CROP_HEIGHT * 3;
      for (let k = 0; k < count; k++) {
        const sum = [0, 0, 0];
        for (let p = 0; p < CROP_WIDTH * CROP_HEIGHT; p++) for (let c = 0; c < 3; c++) sum[c] += crops[k * size + p * 3 + c];
        const n = Math.hypot(...sum);
        for (let c = 0; c < 3; c++) out[k * BACK_EMBED_SIZE + c] = sum[c] / n;
      }
      return out;
    };
    expect(await enrolmentAccuracy(designs, embed, makeRng(1), { testViews: 4, strength: 0 })).toBe(1);
    // Every design's crops under augmentation still have the crop's size.
    expect(designCrops(designs, makeRng(2), 1).length).toBe(3 * CROP_WIDTH * CROP_HEIGHT * 3);
  });
});

describe('live back naming', () => {
  it('matches a reported back to the face-down card under it, never to a face or a distant card', () => {
    const card = (x: number, faceUp: boolean, deckId: string, visibleFraction = 1) =>
      ({ id: `${deckId}-${x}`, code: 'AS', deckId, owner: deckId, backDesign: 'b', faceUp, visibleFraction, zone: { kind: 'stock', seat: 0 }, corners: [[x, 0], [x + 36, 0], [x + 36, 50], [x, 50]] }) as unknown as CardTruth;
    const truth = [card(0, false, 'p1'), card(100, true, 'p2'), card(200, false, 'p3', 0.1)];
    const at = (x: number): Quad => [[x, 0], [x + 36, 0], [x + 36, 50], [x, 50]];
    expect(backUnder(at(4), truth)?.deckId).toBe('p1');
    // A face up card under it is no back; a sliver of a card is not matched; far from all: none.
    expect(backUnder(at(100), truth)).toBeUndefined();
    expect(backUnder(at(200), truth)).toBeUndefined();
    expect(backUnder(at(40), truth)).toBeUndefined();
  });
});
