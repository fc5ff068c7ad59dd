/**
 * A WebSocket as a React hook: connects, parses JSON messages, reconnects with backoff after
 * a drop, and exposes the connection status for the UI. One socket per mounted hook.
 */
import { useEffect, useRef, useState, useCallback } from 'react';
import { reconnectDelayMs, socketUrl } from './reconnect';

/** What the UI shows about a socket. */
export type SocketStatus = 'connecting' | 'open' | 'closed' | 'failed';

/** Options: `onMessage` gets each parsed JSON message; `onBinary` (optional) gets binary ones. */
export interface UseSocketOptions {
  onMessage: (message: unknown) => void;
  onOpen?: (socket: WebSocket) => void;
  /** Close codes after which retrying is pointless (bad token, table gone): the status becomes 'failed'. */
  fatalCloseCodes?: number[];
}

/** Result: status, the last close reason, and `send` for JSON or binary payloads (false when not open). */
export interface SocketHandle {
  status: SocketStatus;
  closeReason: string | null;
  send: (data: string | ArrayBuffer | Blob | object) => boolean;
  /** Bytes buffered and not yet sent: the camera uses it to skip frames on a slow link. */
  bufferedAmount: () => number;
}

/** Connects to `path` (same origin) while `path` is not null. */
export function useSocket(path: string | null, options: UseSocketOptions): SocketHandle {
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [closeReason, setCloseReason] = useState<string | null>(null);
  const socketRef = useRef<WebSocket | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    if (!path) return undefined;
    let attempt = 0;
    let stopped = false;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const connect = (): void => {
      setStatus('connecting');
      const socket = new WebSocket(socketUrl(path, window.location));
      socket.binaryType = 'arraybuffer';
      socketRef.current = socket;
      socket.onopen = () => {
        attempt = 0;
        setStatus('open');
        setCloseReason(null);
        optionsRef.current.onOpen?.(socket);
      };
      socket.onmessage = (event: MessageEvent) => {
        if (typeof event.data !== 'string') return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(event.data);
        } catch {
          return; // A garbled message is dropped; the next full state repairs the view.
        }
        optionsRef.current.onMessage(parsed);
      };
      socket.onclose = (event: CloseEvent) => {
        if (socketRef.current === socket) socketRef.current = null;
        if (stopped) return;
        setCloseReason(event.reason || (event.code ? `closed (${event.code})` : 'closed'));
        if (optionsRef.current.fatalCloseCodes?.includes(event.code)) {
          setStatus('failed');
          return;
        }
        setStatus('closed');
        retryTimer = setTimeout(connect, reconnectDelayMs(attempt++, Math.random()));
      };
    };
    connect();
    return () => {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      socketRef.current?.close(1000, 'page closed');
      socketRef.current = null;
    };
  }, [path]);

  const send = useCallback((data: string | ArrayBuffer | Blob | object): boolean => {
    const socket = socketRef.current;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    if (typeof data === 'string' || data instanceof ArrayBuffer || data instanceof Blob) socket.send(data);
    else socket.send(JSON.stringify(data));
    return true;
  }, []);
  const bufferedAmount = useCallback(() => socketRef.current?.bufferedAmount ?? 0, []);

  return { status, closeReason, send, bufferedAmount };
}
