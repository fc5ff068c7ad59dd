import { describe, expect, it } from 'vitest';
import type { LoggedEvent, TableView } from '../../../server/protocol';
import { initialLiveState, liveReducer, mergeEvents, MAX_KEPT_EVENTS } from '../../../client/src/lib/liveState';

const entry = (seq: number): LoggedEvent => ({ seq, hand: 1, timeMs: seq * 100, event: { type: 'stuck-rotation' }, violations: [] });

describe('live state', () => {
  it('keeps events in order without duplicates and caps them', () => {
    const merged = mergeEvents([entry(1), entry(2)], [entry(2), entry(3)]);
    expect(merged.map((e) => e.seq)).toEqual([1, 2, 3]);
    const many = mergeEvents([], Array.from({ length: MAX_KEPT_EVENTS + 10 }, (_, i) => entry(i)));
    expect(many).toHaveLength(MAX_KEPT_EVENTS);
    expect(many[0].seq).toBe(10);
  });
  it('ignores garbage messages', () => {
    expect(liveReducer(initialLiveState, null)).toBe(initialLiveState);
    expect(liveReducer(initialLiveState, { type: 42 })).toBe(initialLiveState);
    expect(liveReducer(initialLiveState, { type: 'mystery' })).toBe(initialLiveState);
  });
  it('applies welcome, event, view and error messages', () => {
    let state = liveReducer(initialLiveState, { type: 'welcome', protocolVersion: 1, tableId: 't', role: 'referee', serverTimeMs: 0 });
    expect(state.role).toBe('referee');
    state = liveReducer(state, { type: 'event', entry: entry(5) });
    state = liveReducer(state, { type: 'event', entry: entry(5) });
    expect(state.events.map((e) => e.seq)).toEqual([5]);
    const view = { tableId: 't', hand: 2 } as unknown as TableView;
    state = liveReducer(state, { type: 'view', view });
    expect(state.view?.hand).toBe(2);
    state = liveReducer(state, { type: 'error', code: 'x/y', message: 'bad' });
    expect(state.error).toBe('bad (x/y)');
  });
  it('a snapshot replaces the log (sequence numbers restart after a server restart)', () => {
    let state = liveReducer(initialLiveState, { type: 'event', entry: entry(40) });
    state = liveReducer(state, { type: 'snapshot', table: {}, view: {}, stats: {}, recentEvents: [entry(1), entry(2)] });
    expect(state.events.map((e) => e.seq)).toEqual([1, 2]);
    state = liveReducer(state, { type: 'event', entry: entry(3) });
    expect(state.events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });
});
