/**
 * Prerendered bench frames kept on disk between runs (`.cache/prerender/`, git-ignored), so a
 * second `bench:referee --prerender` of the same table streams within seconds instead of
 * rendering for minutes. A cache entry is keyed by the table's options and by the git trees of
 * the code that draws the frames (server/sim, server/game, server/geometry.ts, package-lock.json):
 * any change there, committed or not, renders afresh. Outside a git checkout nothing is cached.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { SimFrame } from '../sim/live';

/** Where the entries live, under the repository root. */
const CACHE_DIR = path.join('.cache', 'prerender');
/** Frames per file (a 3-player hand is about 3,500 frames of ~100 KB). */
const FRAMES_PER_FILE = 500;
/** The code that draws a frame. */
const SOURCES = ['server/sim', 'server/game', 'server/geometry.ts', 'package-lock.json'];

/** The cache key of a table's frames, or null when the drawing code is not a clean git checkout. */
export function prerenderKey(options: object): string | null {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    if (git('status', '--porcelain', '--', ...SOURCES).trim() !== '') return null;
    const trees = SOURCES.map((source) => git('rev-parse', `HEAD:${source}`).trim());
    return createHash('sha256').update(JSON.stringify({ options, trees })).digest('hex').slice(0, 24);
  } catch {
    return null;
  }
}

/** The frames of `key` when cached (under `root`), else null. */
export function readPrerendered(key: string, root = CACHE_DIR): SimFrame[] | null {
  const dir = path.join(root, key);
  if (!existsSync(path.join(dir, 'done'))) return null;
  const files = readdirSync(dir).filter((name) => name.endsWith('.bin')).sort();
  return files.flatMap((name) => deserialize(readFileSync(path.join(dir, name))) as SimFrame[]);
}

/** Keeps `frames` under `key` in `root` (written aside, then moved in place: a run cut short leaves no half entry). */
export function writePrerendered(key: string, frames: SimFrame[], root = CACHE_DIR): void {
  const dir = path.join(root, key);
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  for (let start = 0; start < frames.length; start += FRAMES_PER_FILE) {
    writeFileSync(path.join(partial, `${String(start / FRAMES_PER_FILE).padStart(4, '0')}.bin`), serialize(frames.slice(start, start + FRAMES_PER_FILE)));
  }
  writeFileSync(path.join(partial, 'done'), '');
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}
