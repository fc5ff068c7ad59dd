import { describe, expect, it } from 'vitest';
import { Confusion, canMatch, iou, matchBoxes, namesLabel, parseLabelsCsv, predictedBox, predictionRecord, rankOfLabel, type PredictedBox } from '../../datasets/lib/metrics';

const box = (xmin: number, ymin: number, xmax: number, ymax: number) => ({ xmin, ymin, xmax, ymax });
const pred = (xmin: number, ymin: number, xmax: number, ymax: number, label = 'AS'): PredictedBox => ({ ...box(xmin, ymin, xmax, ymax), cx: (xmin + xmax) / 2, cy: (ymin + ymax) / 2, label });

describe('box matching', () => {
  it('computes IoU', () => {
    expect(iou(box(0, 0, 10, 10), box(0, 0, 10, 10))).toBe(1);
    expect(iou(box(0, 0, 10, 10), box(5, 0, 15, 10))).toBeCloseTo(1 / 3, 6);
    expect(iou(box(0, 0, 1, 1), box(2, 2, 3, 3))).toBe(0);
  });
  it('matches by centre inside or IoU ≥ 0.5', () => {
    expect(canMatch(box(0, 0, 10, 10), pred(2, 2, 30, 30))).toBe(false);
    expect(canMatch(box(0, 0, 10, 10), pred(-5, -5, 15, 15))).toBe(true);
  });
  it('matches one to one: two predictions on one card count once', () => {
    const labels = [{ ...box(0, 0, 10, 14), label: 'AS' }];
    const m = matchBoxes(labels, [pred(0, 0, 10, 14), pred(1, 1, 11, 15)]);
    expect(m.size).toBe(1);
    expect(m.get(0)).toBe(0);
  });
  it('matches a card outlined whole beyond the image edge to its label, the part inside the image', () => {
    // IMG_2642's AC: labelled 0..55 x 0..97, outlined whole from x -57 and y -33.
    const label = { ...box(0, 0, 55, 97), label: 'AC' };
    const outline = [[-48, -33], [55, -26], [46, 95], [-57, 87]] as const;
    const unclipped = pred(-57, -33, 55, 95, 'AC');
    expect(canMatch(label, unclipped)).toBe(false);
    const clipped = predictedBox(outline, 378, 504, 'AC');
    expect([clipped.xmin, clipped.ymin, clipped.xmax, clipped.ymax]).toEqual([0, 0, 55, 95]);
    expect(matchBoxes([label], [clipped]).get(0)).toBe(0);
    // Inside the image nothing changes.
    expect(predictedBox([[10, 20], [30, 20], [30, 50], [10, 50]], 378, 504, 'AS')).toEqual(pred(10, 20, 30, 50));
  });
  it('keeps two copies of the same face apart (never merge by class)', () => {
    const labels = [{ ...box(0, 0, 10, 14), label: 'QH' }, { ...box(50, 0, 60, 14), label: 'QH' }];
    const m = matchBoxes(labels, [pred(50, 0, 60, 14, 'QH'), pred(0, 0, 10, 14, 'QH')]);
    expect([...m.entries()].sort()).toEqual([[0, 1], [1, 0]]);
  });
  it('pairs each reading with the card it names where cascaded cards could take either', () => {
    // Two cards of a cascade, boxed whole: each reading lies nearer the other card's box.
    const labels = [{ ...box(0, 0, 60, 85), label: '3C' }, { ...box(0, 20, 60, 105), label: '10S' }];
    const preds = [pred(0, 15, 60, 100, '3C'), pred(0, 5, 60, 90, '10S')];
    expect(iou(labels[1], preds[0])).toBeGreaterThan(iou(labels[0], preds[0]));
    expect([...matchBoxes(labels, preds).entries()].sort()).toEqual([[0, 0], [1, 1]]);
    // A misreading is still matched by geometry alone.
    expect([...matchBoxes(labels, [pred(0, 15, 60, 100, '4D')]).entries()]).toEqual([[1, 0]]);
  });
  it('names a rank-only label by the rank of the predicted code', () => {
    expect(namesLabel('nine', '9H')).toBe(true);
    expect(namesLabel('nine', '10H')).toBe(false);
    expect(namesLabel('9H', '9S')).toBe(false);
    expect(namesLabel('back', 'back')).toBe(true);
  });
  it('records an image for predictions.jsonl: each label with the prediction it matched, or null', () => {
    const labels = [{ ...box(0, 0, 10, 14), label: 'QH' }, { ...box(50, 0, 60, 14), label: '7S' }];
    const preds = [pred(0.4, 0.2, 10.2, 14.4, 'QH'), pred(100, 100, 110, 114, 'back')];
    const record = predictionRecord('a.jpg', 200, 150, labels, preds, [0.91234, 0.4], matchBoxes(labels, preds));
    expect(record).toEqual({
      file: 'a.jpg',
      width: 200,
      height: 150,
      labels: [
        { label: 'QH', box: [0, 0, 10, 14], prediction: 0 },
        { label: '7S', box: [50, 0, 60, 14], prediction: null },
      ],
      predictions: [
        { label: 'QH', confidence: 0.912, box: [0, 0, 10, 14] },
        { label: 'back', confidence: 0.4, box: [100, 100, 110, 114] },
      ],
    });
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });
});

describe('labels and ranks', () => {
  it('parses code and rank-word labels.csv', () => {
    const parsed = parseLabelsCsv('filename,width,height,class,xmin,ymin,xmax,ymax\na.jpg,100,80,nine,1,2,3,4\na.jpg,100,80,king,5,6,7,8\n');
    expect(parsed.get('a.jpg')?.boxes.map((b) => b.label)).toEqual(['nine', 'king']);
    expect(() => parseLabelsCsv('foo,bar\n1,2')).toThrow(/labels.csv needs/);
  });
  it('reads ranks from codes and words', () => {
    expect(rankOfLabel('10H')).toBe('10');
    expect(rankOfLabel('ace')).toBe('A');
    expect(rankOfLabel('JOKER')).toBeNull();
  });
});

describe('Confusion', () => {
  it('reports precision and recall per class', () => {
    const c = new Confusion(['AS', 'KS', 'reject']);
    c.add('AS', 'AS');
    c.add('AS', 'KS');
    c.add('KS', 'KS');
    const r = c.report();
    expect(r[0]).toMatchObject({ cls: 'AS', recall: 0.5, precision: 1, support: 2 });
    expect(r[1]).toMatchObject({ cls: 'KS', recall: 1, precision: 0.5 });
  });
});
