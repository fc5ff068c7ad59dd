/**
 * Picks the fastest TF.js backend that loads here: tfjs-node (native, optional dependency) →
 * wasm (ships its .wasm inside the npm package, works offline) → cpu (pure JS, slow). Logs it.
 */
import * as tf from '@tensorflow/tfjs';
import { registerWasmTrainingKernels } from './wasm-kernels';

/** The backend names we may end up on. */
export type VisionBackend = 'tensorflow' | 'wasm' | 'cpu';

let chosen: Promise<VisionBackend> | null = null;

/** Options for backend selection; `prefer` forces one (tests compare wasm against cpu). */
export interface BackendOptions {
  prefer?: VisionBackend;
  log?: (message: string) => void;
}

async function tryTfjsNode(): Promise<boolean> {
  try {
    // A computed name keeps bundlers and tsc from requiring the optional native package.
    const name = '@tensorflow/tfjs-node';
    await import(/* @vite-ignore */ name);
    return await tf.setBackend('tensorflow');
  } catch {
    return false;
  }
}

async function tryWasm(): Promise<boolean> {
  try {
    await import('@tensorflow/tfjs-backend-wasm');
    registerWasmTrainingKernels();
    return await tf.setBackend('wasm');
  } catch {
    return false;
  }
}

async function select(options: BackendOptions): Promise<VisionBackend> {
  const log = options.log ?? ((m: string) => console.error(m));
  const order: VisionBackend[] = options.prefer
    ? [options.prefer]
    : ['tensorflow', 'wasm', 'cpu'];
  for (const name of order) {
    let ok = false;
    if (name === 'tensorflow') ok = await tryTfjsNode();
    else if (name === 'wasm') ok = await tryWasm();
    else ok = await tf.setBackend('cpu');
    if (ok) {
      await tf.ready();
      log(`[vision] TF.js backend: ${tf.getBackend()}`);
      return name;
    }
  }
  await tf.setBackend('cpu');
  await tf.ready();
  log('[vision] TF.js backend: cpu (fallback)');
  return 'cpu';
}

/** Initialises TF.js once per process and returns the backend in use. */
export function initBackend(options: BackendOptions = {}): Promise<VisionBackend> {
  if (options.prefer) return select(options);
  chosen ??= select(options);
  return chosen;
}
