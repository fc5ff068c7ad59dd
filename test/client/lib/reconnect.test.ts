import { describe, expect, it } from 'vitest';
import { RECONNECT_BASE_MS, RECONNECT_MAX_MS, reconnectDelayMs, socketUrl } from '../../../client/src/lib/reconnect';
import { frameHeader, ratePerSecond, shouldSendFrame, MAX_BUFFERED_BYTES } from '../../../client/src/lib/cameraFrames';

describe('reconnect', () => {
  it('backs off exponentially up to the cap', () => {
    expect(reconnectDelayMs(0)).toBe(RECONNECT_BASE_MS);
    expect(reconnectDelayMs(1)).toBe(RECONNECT_BASE_MS * 2);
    expect(reconnectDelayMs(3)).toBe(RECONNECT_BASE_MS * 8);
    expect(reconnectDelayMs(50)).toBe(RECONNECT_MAX_MS);
  });
  it('jitters within ±25%', () => {
    expect(reconnectDelayMs(0, 0)).toBe(RECONNECT_BASE_MS * 0.75);
    expect(reconnectDelayMs(0, 1)).toBe(RECONNECT_BASE_MS * 1.25);
    expect(reconnectDelayMs(-3, 7)).toBe(RECONNECT_BASE_MS * 1.25);
  });
  it('builds same-origin socket URLs', () => {
    expect(socketUrl('/api/x', { protocol: 'http:', host: 'h:1' })).toBe('ws://h:1/api/x');
    expect(socketUrl('api/x', { protocol: 'https:', host: 'h' })).toBe('wss://h/api/x');
  });
});

describe('camera frames', () => {
  it('writes the capture time as little-endian float64', () => {
    const header = frameHeader(1700000000123.5);
    expect(header.byteLength).toBe(8);
    expect(new DataView(header).getFloat64(0, true)).toBe(1700000000123.5);
  });
  it('paces frames and backs off when the link is full', () => {
    expect(shouldSendFrame(1000, 900, 10, 0)).toBe(true);
    expect(shouldSendFrame(1000, 950, 10, 0)).toBe(false);
    expect(shouldSendFrame(1000, 0, 10, MAX_BUFFERED_BYTES + 1)).toBe(false);
    expect(shouldSendFrame(1000, 0, 0, 0)).toBe(false);
  });
  it('measures a rate over a window', () => {
    expect(ratePerSecond([0, 100, 200, 300, 400], 400)).toBeCloseTo(10);
    expect(ratePerSecond([0], 0)).toBe(0);
    expect(ratePerSecond([0, 100], 10_000)).toBe(0);
  });
});
