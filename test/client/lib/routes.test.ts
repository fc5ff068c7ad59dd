import { describe, expect, it } from 'vitest';
import { parseRoute, routePath, TABLE_PAGES } from '../../../client/src/lib/routes';

describe('routes', () => {
  it('parses the home page and table pages', () => {
    expect(parseRoute('/')).toEqual({ page: 'tables' });
    expect(parseRoute('/tables/t-1')).toEqual({ page: 'dashboard', tableId: 't-1' });
    expect(parseRoute('/tables/t-1/score')).toEqual({ page: 'score', tableId: 't-1' });
    expect(parseRoute('/overlay/t-1')).toEqual({ page: 'overlay', tableId: 't-1' });
  });
  it('gives not-found for unknown paths', () => {
    expect(parseRoute('/tables/t-1/nope')).toEqual({ page: 'not-found', path: '/tables/t-1/nope' });
    expect(parseRoute('/x/y/z/w')).toEqual({ page: 'not-found', path: '/x/y/z/w' });
  });
  it('round-trips every table page, including odd ids', () => {
    for (const page of TABLE_PAGES) {
      const route = { page, tableId: 'a b/c' } as const;
      expect(parseRoute(routePath(route))).toEqual(route);
    }
  });
});
