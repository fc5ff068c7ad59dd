import { describe, expect, it } from 'vitest';
import { adoptUrlToken, loadTokens, saveTokens, tokenFor, type TokenStorage } from '../../../client/src/lib/tokens';
import { tableLinks } from '../../../client/src/lib/links';

function memoryStorage(): TokenStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value) };
}

describe('tokens', () => {
  it('stores, merges and loads tokens per table', () => {
    const storage = memoryStorage();
    saveTokens(storage, 't1', { view: 'v' });
    saveTokens(storage, 't1', { referee: 'r' });
    expect(loadTokens(storage, 't1')).toEqual({ view: 'v', referee: 'r' });
    expect(loadTokens(storage, 't2')).toEqual({});
  });
  it('ignores garbage in storage', () => {
    const storage = memoryStorage();
    storage.setItem('nerts:tokens:t1', '{not json');
    expect(loadTokens(storage, 't1')).toEqual({});
    storage.setItem('nerts:tokens:t1', JSON.stringify({ view: 42, camera: 'c' }));
    expect(loadTokens(storage, 't1')).toEqual({ camera: 'c' });
  });
  it('picks the weakest sufficient token, never a camera token for viewing', () => {
    expect(tokenFor({ referee: 'r', view: 'v' }, 'view')).toBe('v');
    expect(tokenFor({ referee: 'r' }, 'view')).toBe('r');
    expect(tokenFor({ camera: 'c' }, 'view')).toBeNull();
    expect(tokenFor({ view: 'v' }, 'referee')).toBeNull();
  });
  it('adopts a URL token under the role the page needs', () => {
    const storage = memoryStorage();
    expect(adoptUrlToken(storage, 't1', 'camera', 'c')).toEqual({ camera: 'c' });
    expect(adoptUrlToken(storage, 't1', 'view', null)).toEqual({ camera: 'c' });
  });
  it('builds links only for known tokens, each with its token', () => {
    expect(tableLinks('t 1', { view: 'v' })).toEqual({ viewer: '/tables/t%201?token=v', overlay: '/overlay/t%201?token=v' });
    const all = tableLinks('t1', { view: 'v', referee: 'r', camera: 'c' });
    expect(all.referee).toBe('/tables/t1?token=r');
    expect(all.camera).toBe('/tables/t1/camera?token=c&view=v');
  });
});
