/**
 * One live table for the pages: the tokens this browser holds for it, the live socket (with
 * reconnect) and the reduced live state. A page tree shares one instance through TableContext.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { CLOSE_CODES, PROTOCOL_VERSION, type Role } from '../../../server/protocol';
import { api, tableSocketPath } from './api';
import { initialLiveState, liveReducer, type LiveState } from './liveState';
import { adoptUrlToken, loadTokens, saveTokens, tokenFor, type KnownTokens } from './tokens';
import { useSocket, type SocketStatus } from './useSocket';

/** What a table page gets: live state, connection status, tokens and a way to store new ones. */
export interface LiveTable {
  tableId: string;
  live: LiveState;
  status: SocketStatus;
  closeReason: string | null;
  tokens: KnownTokens;
  /** Stores a token (e.g. a referee token pasted by hand) and reconnects with it if better. */
  rememberToken: (role: Role, token: string) => void;
  /** Pages that draw recognised cards ask for per-frame observations while they are shown. */
  setObservationsWanted: (wanted: boolean) => void;
}

/** Reads `?token=` once, stores it under `urlRole`, and keeps the table's tokens in state. */
export function useTableTokens(tableId: string, urlRole: Role): [KnownTokens, (role: Role, token: string) => void] {
  const [tokens, setTokens] = useState<KnownTokens>(() => {
    const query = new URLSearchParams(window.location.search);
    // Camera links carry the camera token as `token` and a view token as `view`.
    const viewToken = query.get('view');
    if (viewToken) saveTokens(window.localStorage, tableId, { view: viewToken });
    return adoptUrlToken(window.localStorage, tableId, urlRole, query.get('token'));
  });
  useEffect(() => setTokens(loadTokens(window.localStorage, tableId)), [tableId]);
  const remember = useCallback(
    (role: Role, token: string) => setTokens(saveTokens(window.localStorage, tableId, { [role]: token })),
    [tableId],
  );
  return [tokens, remember];
}

/**
 * Connects the live socket of a table with the best viewing token known.
 * `observations` asks the server for per-frame card outlines (camera, setup and overlay pages).
 */
export function useLiveTable(tableId: string, options: { observations?: boolean; urlRole?: Role } = {}): LiveTable {
  const [tokens, rememberToken] = useTableTokens(tableId, options.urlRole ?? 'view');
  const [live, dispatch] = useReducer(liveReducer, initialLiveState);
  const viewToken = tokenFor(tokens, 'view');
  const path = viewToken ? tableSocketPath(tableId, 'live', viewToken) : null;
  const [observationsWanted, setObservationsWanted] = useState(false);
  const wantObservations = (options.observations ?? false) || observationsWanted;
  const observationsRef = useRef(wantObservations);
  observationsRef.current = wantObservations;

  // The token of the socket that is open now: `live.role` describes that token, no other.
  const connectedTokenRef = useRef<string | null>(null);
  const socket = useSocket(path, {
    onMessage: dispatch,
    onOpen: (ws) => {
      connectedTokenRef.current = viewToken;
      ws.send(JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, client: 'web' }));
      if (observationsRef.current) ws.send(JSON.stringify({ type: 'subscribe', observations: true }));
    },
    fatalCloseCodes: [CLOSE_CODES.badToken, CLOSE_CODES.forbidden, CLOSE_CODES.tableNotFound, CLOSE_CODES.protocolMismatch],
  });
  const { send, status } = socket;
  useEffect(() => {
    if (status === 'open') send({ type: 'subscribe', observations: wantObservations });
  }, [wantObservations, status, send]);

  // A link may carry a referee token (the server's printed dashboard URL does). Once the server
  // names the role, fetch the table's real tokens, so shared links never leak the referee token.
  useEffect(() => {
    if (live.role !== 'referee' || !viewToken || tokens.view !== viewToken || connectedTokenRef.current !== viewToken) return;
    let cancelled = false;
    api.getTokens(tableId, viewToken).then(
      (all) => {
        if (cancelled) return;
        rememberToken('referee', all.referee);
        rememberToken('camera', all.camera);
        rememberToken('view', all.view);
      },
      () => undefined, // keep working as referee with what we have
    );
    return () => {
      cancelled = true;
    };
  }, [live.role, viewToken, tokens.view, tableId, rememberToken]);

  return useMemo(
    () => ({
      tableId,
      live,
      status: path ? socket.status : 'failed',
      closeReason: path ? socket.closeReason : 'no token for this table',
      tokens,
      rememberToken,
      setObservationsWanted,
    }),
    [tableId, live, socket.status, socket.closeReason, tokens, rememberToken, path],
  );
}

/** Shares one live table with every page under a table's shell. */
export const TableContext = createContext<LiveTable | null>(null);

/** The live table of the surrounding shell; throws when used outside one (a programmer error). */
export function useTable(): LiveTable {
  const value = useContext(TableContext);
  if (!value) throw new Error('useTable() outside <TableContext.Provider>');
  return value;
}
