import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { GPU_PACK_FORMAT, writeGpuPack, type GpuPackManifest } from '../../datasets/lib/gpu-pack';
import { RENDERED_BACK_GROUP, trainingBackOf } from '../../datasets/lib/rendered';
import { SOURCE_BYTES, SOURCE_HEIGHT, SOURCE_WIDTH, SOURCES_FORMAT, type SourceEntry, type SourceSet } from '../../datasets/lib/sources';
import { NO_RANK, NO_SUIT, OTHER_CLASS } from '../../server/vision/classes';

/** A small source set: flat colours, one entry of each kind the trainer must tell apart. */
function sourceSet(): SourceSet {
  const entries: SourceEntry[] = [
    { group: 'cards53', label: 'QH', split: 'train', file: 'a' },
    { group: 'cards53', label: '10S', split: 'valid', file: 'b' },
    { group: 'art:bellot', label: 'AC', split: 'train', file: 'c' },
    { group: 'art:kennard', label: 'KD', split: 'heldout', file: 'd' },
    { group: 'back', label: 'back:gen-1', split: 'train', file: 'e' },
    { group: 'back', label: 'back:gen-40', split: 'heldout', file: 'f' },
    { group: 'other', label: 'other', split: 'train', file: 'g' },
    { group: 'art:aguilar-mod', label: '5D', split: 'train', file: 'h' },
    { group: RENDERED_BACK_GROUP, label: 'back:gen-1', split: 'train', file: 'i' },
    { group: 'strip:bellot', label: '7H', split: 'train', file: 'j' },
  ];
  const pixels = new Uint8Array(entries.length * SOURCE_BYTES);
  entries.forEach((_, i) => pixels.fill(25 * i, i * SOURCE_BYTES, (i + 1) * SOURCE_BYTES));
  return { format: SOURCES_FORMAT, entries, pixels };
}

describe('writeGpuPack', () => {
  it('writes every source as an image of the source size, with the labels and pools npm run train uses', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gpu-pack-'));
    const written = await writeGpuPack(dir, sourceSet());
    const manifest = JSON.parse(readFileSync(path.join(dir, 'cards.json'), 'utf8')) as GpuPackManifest;
    expect(manifest).toEqual(written);
    expect(manifest.format).toBe(GPU_PACK_FORMAT);

    const blob = readFileSync(path.join(dir, 'cards.bin'));
    expect(blob.length).toBe(manifest.entries.reduce((n, e) => n + e.length, 0));
    for (const [i, e] of manifest.entries.entries()) {
      const { data, info } = await sharp(blob.subarray(e.offset, e.offset + e.length)).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([SOURCE_WIDTH, SOURCE_HEIGHT]);
      // Lossy, but the flat colour survives.
      expect(Math.abs(data[Math.floor(data.length / 2)] - 25 * i)).toBeLessThan(6);
    }

    const byFile = (file: string) => manifest.entries[sourceSet().entries.findIndex((e) => e.file === file)];
    expect(byFile('a')).toMatchObject({ cls: manifest.classNames.indexOf('QH'), rank: 11, suit: 1 });
    expect(byFile('g')).toMatchObject({ cls: OTHER_CLASS, rank: NO_RANK, suit: NO_SUIT });
    expect(byFile('e').cls).toBe(manifest.classNames.indexOf('back:gen-1'));
    expect(byFile('f').cls).toBe(-1); // a held-out back is no class of the model
    expect(byFile('i').cls).toBe(byFile('e').cls); // a rendered back trains its design's class
    expect(manifest.classNames).toContain('back:gen-1');
    expect(manifest.classNames).not.toContain('back:gen-40');

    // Pools hold training entries only, weighted as batches.ts / index-batches.ts weigh them.
    const count = (pool: number[], file: string) => pool.filter((i) => sourceSet().entries[i].file === file).length;
    expect([count(manifest.identityPool, 'a'), count(manifest.identityPool, 'c'), count(manifest.identityPool, 'e'), count(manifest.identityPool, 'g')]).toEqual([1, 5, 16, 2]);
    expect([count(manifest.identityPool, 'b'), count(manifest.identityPool, 'd'), count(manifest.identityPool, 'f')]).toEqual([0, 0, 0]);
    expect(count(manifest.identityPool, 'i')).toBe(1); // weighted as rendered crops, not as clean back art
    expect(manifest.classNames.filter((n) => n.startsWith('back:'))).toEqual(['back:gen-1']);
    expect(count(manifest.indexPool, 'e')).toBe(3);
    expect(count(manifest.indexPool, 'h')).toBe(0); // its corners print no rank
    expect(manifest.noIndex).toEqual([7]);
    // A rendered strip crop teaches the index model only, flagged so the trainer reads it by its top-left corner.
    expect([count(manifest.identityPool, 'j'), count(manifest.indexPool, 'j')]).toEqual([0, 1]);
    expect(manifest.strip).toEqual([9]);
    expect(manifest.valid).toEqual([1]);
    expect(manifest.heldout).toEqual([3]);
  });
});

describe('trainingBackOf', () => {
  const designs = ['bellot/back-aqua', 'jumbo-horizontal2/red', 'kennard/b-1', 'gen-3'];
  it('names the shared back art a rendered back shows, under either package name', () => {
    expect(trainingBackOf('shared-bellot/back-aqua', designs)).toBe('bellot/back-aqua');
    expect(trainingBackOf('npm-svg-cards/back-aqua', designs)).toBe('bellot/back-aqua');
    expect(trainingBackOf('shared-jumbo-horizontal2/red', designs)).toBe('jumbo-horizontal2/red');
  });
  it('gives no class to held-out backs, the renderer\'s own generated designs, or art the sources lack', () => {
    expect(trainingBackOf('shared-kennard/b-1', designs)).toBeNull();
    expect(trainingBackOf('gen-back-3', designs)).toBeNull();
    expect(trainingBackOf('npm-svg-cards/back-teal', designs)).toBeNull();
  });
});
