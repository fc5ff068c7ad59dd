/**
 * `npm run average-models -- --from A --to B [--alpha 0.5] --out DIR`
 * Weight-space interpolation of two models of one architecture, (1 − alpha)·A + alpha·B, where B
 * was fine-tuned from A ("WiSE-FT", Wortsman et al. 2022): the mix keeps most of what the
 * fine-tune gained on its new data (webcam-size rendered cards) while giving back less of what it
 * cost elsewhere (real photos). Both folders hold TF.js layers models (model.json + weights.bin)
 * with the same weight manifest; the output keeps B's topology and metadata, notes the mix, and
 * prints a JSON line.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface LayersModelJson {
  weightsManifest: Array<{ paths: string[]; weights: Array<{ name: string; shape: number[]; dtype: string }> }>;
  userDefinedMetadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** (1 − alpha)·a + alpha·b, element by element. */
function interpolate(a: Float32Array, b: Float32Array, alpha: number): Float32Array {
  if (a.length !== b.length) throw new Error(`weights differ in size (${a.length} vs ${b.length})`);
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (1 - alpha) * a[i] + alpha * b[i];
  return out;
}

async function readModel(dir: string): Promise<{ json: LayersModelJson; weights: Float32Array }> {
  const json = JSON.parse(await fs.readFile(path.join(dir, 'model.json'), 'utf8')) as LayersModelJson;
  if (json.weightsManifest.length !== 1 || json.weightsManifest[0].paths.length !== 1) throw new Error(`${dir}: expected one weights file`);
  if (json.weightsManifest[0].weights.some((w) => w.dtype !== 'float32')) throw new Error(`${dir}: only float32 weights can be averaged`);
  const bytes = await fs.readFile(path.join(dir, json.weightsManifest[0].paths[0]));
  return { json, weights: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, to: { type: 'string' }, alpha: { type: 'string', default: '0.5' }, out: { type: 'string' } } });
  if (!values.from || !values.to || !values.out) throw new Error('--from A --to B --out DIR are required');
  const alpha = Number(values.alpha);
  if (!(alpha >= 0 && alpha <= 1)) throw new Error('--alpha must be between 0 and 1');
  const [a, b] = await Promise.all([readModel(values.from), readModel(values.to)]);
  if (JSON.stringify(a.json.weightsManifest) !== JSON.stringify(b.json.weightsManifest)) throw new Error('the two models have different weights (architecture or layer names)');
  const mixed = interpolate(a.weights, b.weights, alpha);
  await fs.mkdir(values.out, { recursive: true });
  // B's metadata (classes, crop size, ...) minus its scores, which were measured on B, not the mix.
  const { validAcc: _valid, heldoutDeckAcc: _heldout, ...kept } = b.json.userDefinedMetadata ?? {};
  const metadata = { ...kept, interpolated: { from: String(a.json.userDefinedMetadata?.epoch ?? values.from), to: String(b.json.userDefinedMetadata?.epoch ?? values.to), alpha } };
  await fs.writeFile(path.join(values.out, 'model.json'), JSON.stringify({ ...b.json, userDefinedMetadata: metadata }));
  await fs.writeFile(path.join(values.out, b.json.weightsManifest[0].paths[0]), Buffer.from(mixed.buffer, mixed.byteOffset, mixed.byteLength));
  console.log(JSON.stringify({ out: values.out, alpha, weights: mixed.length }));
}

main().catch((error: unknown) => {
  console.error(`average-models: ${(error as Error).message}`);
  process.exit(2);
});
