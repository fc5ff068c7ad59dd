import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../datasets/lib/shared-data';
import { taskFiles } from '../../datasets/lib/train-tasks';

describe('training output files', () => {
  it('a plain run writes the committed model with its history and curves under models/', () => {
    const files = taskFiles('identity');
    expect(files.outDir).toBe(path.join(REPO_ROOT, 'models', 'card-identity'));
    expect(files.historyFile).toBe(path.join(REPO_ROOT, 'models', 'training-history.json'));
    expect(files.curvesFile).toBe(path.join(REPO_ROOT, 'models', 'training-curves.png'));
  });

  it('the back-look model goes to models/back-looks', () => {
    expect(taskFiles('back').outDir).toBe(path.join(REPO_ROOT, 'models', 'back-looks'));
  });

  it('a run with --out keeps its model, history and curves there and leaves the committed ones alone', () => {
    for (const name of ['identity', 'index', 'locator', 'back'] as const) {
      const plain = taskFiles(name);
      const trial = taskFiles(name, '/tmp/trial');
      expect(trial).toEqual({ outDir: '/tmp/trial', checkpointDir: plain.checkpointDir, historyFile: '/tmp/trial/history.json', curvesFile: '/tmp/trial/curves.png' });
    }
  });

  it('a live-size run (--live) has its own model folder and checkpoints', () => {
    const identity = taskFiles('identity', undefined, true);
    expect(identity.outDir).toBe(path.join(REPO_ROOT, 'models', 'card-identity-live'));
    expect(identity.checkpointDir).not.toBe(taskFiles('identity').checkpointDir);
    const index = taskFiles('index', undefined, true);
    expect(index.outDir).toBe(path.join(REPO_ROOT, 'models', 'card-index-live'));
    expect(index.historyFile).toBe(path.join(REPO_ROOT, 'models', 'card-index-live-history.json'));
    expect(() => taskFiles('locator', undefined, true)).toThrow(/no live-size variant/);
    expect(() => taskFiles('back', undefined, true)).toThrow(/no live-size variant/);
  });
});
