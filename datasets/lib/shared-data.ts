/**
 * Where the third-party data lives: `../shared/data` beside the repo, or env NERTS_SHARED_DATA.
 * It is never copied into the repo; callers say clearly when it is missing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (two folders above this file). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Absolute path of the shared data folder (may not exist). */
export function sharedDataDir(): string {
  return process.env.NERTS_SHARED_DATA ?? path.resolve(REPO_ROOT, '..', 'shared', 'data');
}

/** Absolute path inside the shared data folder, or null with a reason when it is missing. */
export function sharedDataPath(...parts: string[]): { path: string; missing: string | null } {
  const full = path.join(sharedDataDir(), ...parts);
  return {
    path: full,
    missing: existsSync(full)
      ? null
      : `shared data not found at ${full} (set NERTS_SHARED_DATA to the folder holding card-art/ and real/)`,
  };
}

/** Cache folder for decoded training sources (git-ignored). */
export function cacheDir(): string {
  return path.join(REPO_ROOT, '.cache', 'vision');
}
