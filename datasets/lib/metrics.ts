/**
 * Scoring predictions against labelled boxes (eval layout b) and building confusion matrices.
 * Pure functions: no I/O.
 */

/** An axis-aligned box, pixels. */
export interface Box {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** A labelled card: its box and label (a card code, or a rank word for rank-only labels). */
export interface LabelledBox extends Box {
  label: string;
}

/** A predicted card: box, centre and predicted label. */
export interface PredictedBox extends Box {
  cx: number;
  cy: number;
  label: string;
}

/**
 * The box a prediction is matched by: its outline's bounding box inside the image (`width` x
 * `height`, the labels' pixels). A card cut by the image's edge is labelled by the part inside
 * the image; the recogniser may outline it whole, beyond the edge, and that outline's box would
 * match its label by less than half (session 47: four real photos' cards, each read at 0.95–0.99).
 */
export function predictedBox(outline: ReadonlyArray<readonly [number, number]>, width: number, height: number, label: string): PredictedBox {
  const xs = outline.map((p) => Math.min(width, Math.max(0, p[0])));
  const ys = outline.map((p) => Math.min(height, Math.max(0, p[1])));
  const box = { xmin: Math.min(...xs), xmax: Math.max(...xs), ymin: Math.min(...ys), ymax: Math.max(...ys) };
  return { ...box, cx: (box.xmin + box.xmax) / 2, cy: (box.ymin + box.ymax) / 2, label };
}

/** Intersection over union of two boxes. */
export function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a.xmax, b.xmax) - Math.max(a.xmin, b.xmin));
  const iy = Math.max(0, Math.min(a.ymax, b.ymax) - Math.max(a.ymin, b.ymin));
  const inter = ix * iy;
  const union = (a.xmax - a.xmin) * (a.ymax - a.ymin) + (b.xmax - b.xmin) * (b.ymax - b.ymin) - inter;
  return union > 0 ? inter / union : 0;
}

/** True when a prediction may match a label: its centre inside the box, or IoU ≥ 0.5. */
export function canMatch(label: Box, prediction: PredictedBox): boolean {
  const centreInside =
    prediction.cx >= label.xmin && prediction.cx <= label.xmax && prediction.cy >= label.ymin && prediction.cy <= label.ymax;
  return centreInside || iou(label, prediction) >= 0.5;
}

/**
 * True when a prediction names the labelled card: the same code (or `back`), or, for a label that
 * gives only a rank word (the table photos' `nine`), the same rank.
 */
export function namesLabel(label: string, predicted: string): boolean {
  if (label === predicted) return true;
  const word = RANK_WORDS[label.toLowerCase()];
  return word !== undefined && rankOfLabel(predicted) === word;
}

/**
 * One-to-one matching of predictions to labels, greedy: pairs where the prediction names the
 * label's card first, then the rest, each by IoU and then by centre distance. Returns label index →
 * prediction index.
 *
 * Naming first matters in cascades: the labels box whole cards, so a strip's box holds the centres
 * of the cards lying over it, and by geometry alone two cards read right could each be matched to
 * the other's label and both count as misnamed (rendered unseen art, session 68: 28 of 634 found
 * cards). A prediction still matches only a label it may match (`canMatch`): naming first changes
 * which reading pairs with which card where several may, not where a card may be found.
 */
export function matchBoxes(labels: readonly LabelledBox[], predictions: readonly PredictedBox[]): Map<number, number> {
  const pairs: Array<{ l: number; p: number; named: boolean; score: number }> = [];
  labels.forEach((label, l) => {
    predictions.forEach((prediction, p) => {
      if (!canMatch(label, prediction)) return;
      const lcx = (label.xmin + label.xmax) / 2;
      const lcy = (label.ymin + label.ymax) / 2;
      const dist = Math.hypot(lcx - prediction.cx, lcy - prediction.cy) / Math.max(1, label.xmax - label.xmin);
      pairs.push({ l, p, named: namesLabel(label.label, prediction.label), score: iou(label, prediction) - 0.01 * dist });
    });
  });
  pairs.sort((a, b) => Number(b.named) - Number(a.named) || b.score - a.score);
  const usedLabels = new Set<number>();
  const usedPredictions = new Set<number>();
  const result = new Map<number, number>();
  for (const { l, p } of pairs) {
    if (usedLabels.has(l) || usedPredictions.has(p)) continue;
    usedLabels.add(l);
    usedPredictions.add(p);
    result.set(l, p);
  }
  return result;
}

/** A confusion matrix over named classes (rows: truth, columns: prediction). */
export class Confusion {
  readonly counts: number[][];
  private readonly index = new Map<string, number>();

  constructor(readonly classes: string[]) {
    classes.forEach((c, i) => this.index.set(c, i));
    this.counts = classes.map(() => classes.map(() => 0));
  }

  /** Records one (truth, prediction) pair; unknown names go to the last class. */
  add(truth: string, predicted: string): void {
    const last = this.classes.length - 1;
    this.counts[this.index.get(truth) ?? last][this.index.get(predicted) ?? last]++;
  }

  /** Per-class precision, recall and support. */
  report(): Array<{ cls: string; precision: number; recall: number; support: number }> {
    return this.classes.map((cls, i) => {
      const tp = this.counts[i][i];
      const support = this.counts[i].reduce((a, b) => a + b, 0);
      const predicted = this.counts.reduce((a, row) => a + row[i], 0);
      return { cls, precision: predicted ? tp / predicted : NaN, recall: support ? tp / support : NaN, support };
    });
  }
}

/** Rank word of the original table-photo labels → our rank symbol. */
export const RANK_WORDS: Record<string, string> = {
  ace: 'A', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', jack: 'J', queen: 'Q', king: 'K',
};

/** The rank symbol of a label: a card code's rank, or a rank word's symbol; null if neither. */
export function rankOfLabel(label: string): string | null {
  const word = RANK_WORDS[label.toLowerCase()];
  if (word) return word;
  const m = /^(A|[2-9]|10|J|Q|K)[SHDC]$/.exec(label);
  return m ? m[1] : null;
}

/** Parses labels.csv (`filename,width,height,class|code,xmin,ymin,xmax,ymax`). */
export function parseLabelsCsv(text: string): Map<string, { width: number; height: number; boxes: LabelledBox[] }> {
  const rows = text.split(/\r?\n/).filter((l) => l.trim());
  const out = new Map<string, { width: number; height: number; boxes: LabelledBox[] }>();
  const header = rows.shift()?.split(',').map((h) => h.trim()) ?? [];
  const col = (name: string) => header.indexOf(name);
  const labelCol = col('code') >= 0 ? col('code') : col('class');
  if (col('filename') < 0 || labelCol < 0 || col('xmin') < 0) throw new Error('labels.csv needs columns filename,width,height,class|code,xmin,ymin,xmax,ymax');
  for (const row of rows) {
    const f = row.split(',').map((v) => v.trim());
    const entry = out.get(f[col('filename')]) ?? { width: Number(f[col('width')]), height: Number(f[col('height')]), boxes: [] };
    entry.boxes.push({ label: f[labelCol], xmin: Number(f[col('xmin')]), ymin: Number(f[col('ymin')]), xmax: Number(f[col('xmax')]), ymax: Number(f[col('ymax')]) });
    out.set(f[col('filename')], entry);
  }
  return out;
}

/** An image's labels and predictions as `predictions.jsonl` holds them (boxes in the labels' pixels). */
export function predictionRecord(file: string, width: number, height: number, labels: readonly LabelledBox[], preds: readonly PredictedBox[], confidences: readonly number[], match: ReadonlyMap<number, number>) {
  const box = (b: { xmin: number; ymin: number; xmax: number; ymax: number }) => [b.xmin, b.ymin, b.xmax, b.ymax].map(Math.round);
  return {
    file,
    width,
    height,
    labels: labels.map((l, i) => ({ label: l.label, box: box(l), prediction: match.get(i) ?? null })),
    predictions: preds.map((p, i) => ({ label: p.label, confidence: Number(confidences[i].toFixed(3)), box: box(p) })),
  };
}
