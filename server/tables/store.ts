/**
 * SQLite persistence (better-sqlite3, WAL): tables with their tokens, calibration and tracker
 * snapshot, the views their decks were enrolled from, hands with their scores, the append-only
 * event log, and evidence frames (files in the data dir, rows here). Synchronous on purpose:
 * each write is a short transaction, so a crash loses nothing that was acknowledged.
 */
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Calibration, CreateTable, LoggedEvent, ScoreRow, TableTokens, FrameSource } from '../protocol';

/** A table row as stored. `setup` is the validated creation body with defaults filled in. */
export interface StoredTable {
  id: string;
  setup: Required<Pick<CreateTable, 'name' | 'seats' | 'variant' | 'target'>> & { knobs: NonNullable<CreateTable['knobs']> };
  tokens: TableTokens;
  source: FrameSource;
  calibration: Calibration | null;
  enrolledDecks: string[];
  /** Tracker state snapshot (JSON) at the last logged event, to resume mid-hand. */
  trackerSnapshot: unknown;
  createdAtMs: number;
}

/** What an enrolment view shows: a deck's back (key: the deck id) or a face (key: its code). */
export type EnrolmentKind = 'back' | 'face';

/** The views one back or face was enrolled from. */
export interface Enrolment {
  kind: EnrolmentKind;
  key: string;
  views: Uint8Array[];
}

/** A stored hand. */
export interface StoredHand {
  tableId: string;
  match: number;
  hand: number;
  startedAtMs: number;
  endedAtMs: number | null;
  scores: ScoreRow[] | null;
}

/** Data directory from NERTS_DATA_DIR (default ./data). */
export function dataDirFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.NERTS_DATA_DIR && env.NERTS_DATA_DIR.length > 0 ? env.NERTS_DATA_DIR : join(process.cwd(), 'data');
}

/** The store; one per server process. */
export class TableStore {
  private readonly db: Database.Database;
  private readonly evidenceDir: string;

  constructor(readonly dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.evidenceDir = join(dataDir, 'evidence');
    mkdirSync(this.evidenceDir, { recursive: true });
    this.db = new Database(join(dataDir, 'referee.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY, setup TEXT NOT NULL, tokens TEXT NOT NULL, source TEXT NOT NULL,
        calibration TEXT, enrolled TEXT NOT NULL DEFAULT '[]', tracker TEXT, created_at REAL NOT NULL);
      CREATE TABLE IF NOT EXISTS hands (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE, match INTEGER NOT NULL, hand INTEGER NOT NULL,
        started_at REAL NOT NULL, ended_at REAL, scores TEXT, PRIMARY KEY (table_id, hand));
      CREATE TABLE IF NOT EXISTS events (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE, seq INTEGER NOT NULL, hand INTEGER NOT NULL,
        time_ms REAL NOT NULL, event TEXT NOT NULL, violations TEXT NOT NULL, PRIMARY KEY (table_id, seq));
      CREATE TABLE IF NOT EXISTS enrolments (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE, kind TEXT NOT NULL, key TEXT NOT NULL,
        view BLOB NOT NULL, created_at REAL NOT NULL);
      CREATE TABLE IF NOT EXISTS evidence (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE, id TEXT NOT NULL, file TEXT NOT NULL,
        content_type TEXT NOT NULL, created_at REAL NOT NULL, PRIMARY KEY (table_id, id));
    `);
  }

  /** Inserts a new table. */
  createTable(table: StoredTable): void {
    this.db
      .prepare('INSERT INTO tables (id, setup, tokens, source, calibration, enrolled, tracker, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(table.id, JSON.stringify(table.setup), JSON.stringify(table.tokens), table.source, table.calibration ? JSON.stringify(table.calibration) : null, JSON.stringify(table.enrolledDecks), null, table.createdAtMs);
  }

  /** Every stored table. */
  listTables(): StoredTable[] {
    const rows = this.db.prepare('SELECT * FROM tables ORDER BY created_at').all() as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      id: row.id as string,
      setup: JSON.parse(row.setup as string) as StoredTable['setup'],
      tokens: JSON.parse(row.tokens as string) as TableTokens,
      source: row.source as FrameSource,
      calibration: row.calibration ? (JSON.parse(row.calibration as string) as Calibration) : null,
      enrolledDecks: JSON.parse(row.enrolled as string) as string[],
      trackerSnapshot: row.tracker ? (JSON.parse(row.tracker as string) as unknown) : null,
      createdAtMs: row.created_at as number,
    }));
  }

  /** Updates the mutable setup columns. */
  updateTable(id: string, patch: { setup?: StoredTable['setup']; source?: FrameSource; calibration?: Calibration | null; enrolledDecks?: string[] }): void {
    if (patch.setup !== undefined) this.db.prepare('UPDATE tables SET setup = ? WHERE id = ?').run(JSON.stringify(patch.setup), id);
    if (patch.source !== undefined) this.db.prepare('UPDATE tables SET source = ? WHERE id = ?').run(patch.source, id);
    if (patch.calibration !== undefined) this.db.prepare('UPDATE tables SET calibration = ? WHERE id = ?').run(patch.calibration ? JSON.stringify(patch.calibration) : null, id);
    if (patch.enrolledDecks !== undefined) this.db.prepare('UPDATE tables SET enrolled = ? WHERE id = ?').run(JSON.stringify(patch.enrolledDecks), id);
  }

  /**
   * Keeps a view (an encoded image of one card) a deck's back or a face was enrolled from, so a
   * restart enrols it again. Only the newest `keep` views of one back or face are kept.
   */
  saveEnrolment(tableId: string, kind: EnrolmentKind, key: string, view: Uint8Array, keep: number): void {
    this.db.transaction(() => {
      this.db.prepare('INSERT INTO enrolments (table_id, kind, key, view, created_at) VALUES (?, ?, ?, ?, ?)').run(tableId, kind, key, Buffer.from(view), Date.now());
      this.db
        .prepare('DELETE FROM enrolments WHERE table_id = ? AND kind = ? AND key = ? AND rowid NOT IN (SELECT rowid FROM enrolments WHERE table_id = ? AND kind = ? AND key = ? ORDER BY rowid DESC LIMIT ?)')
        .run(tableId, kind, key, tableId, kind, key, keep);
    })();
  }

  /** Forgets every view a back or face was enrolled from. */
  deleteEnrolment(tableId: string, kind: EnrolmentKind, key: string): void {
    this.db.prepare('DELETE FROM enrolments WHERE table_id = ? AND kind = ? AND key = ?').run(tableId, kind, key);
  }

  /** A table's enrolled backs and faces, each with its views oldest first. */
  enrolments(tableId: string): Enrolment[] {
    const rows = this.db.prepare('SELECT kind, key, view FROM enrolments WHERE table_id = ? ORDER BY rowid').all(tableId) as Array<{ kind: EnrolmentKind; key: string; view: Buffer }>;
    const byKey = new Map<string, Enrolment>();
    for (const row of rows) {
      const id = `${row.kind}:${row.key}`;
      const entry = byKey.get(id) ?? { kind: row.kind, key: row.key, views: [] };
      entry.views.push(new Uint8Array(row.view));
      byKey.set(id, entry);
    }
    return [...byKey.values()];
  }

  /** Deletes a table, its log, hands and evidence files. */
  deleteTable(id: string): void {
    this.db.prepare('DELETE FROM tables WHERE id = ?').run(id);
    rmSync(join(this.evidenceDir, id), { recursive: true, force: true });
  }

  /** Appends events and the tracker snapshot in one transaction. */
  readonly appendEvents = (tableId: string, entries: LoggedEvent[], trackerSnapshot: unknown): void => {
    const insert = this.db.prepare('INSERT INTO events (table_id, seq, hand, time_ms, event, violations) VALUES (?, ?, ?, ?, ?, ?)');
    const snapshot = this.db.prepare('UPDATE tables SET tracker = ? WHERE id = ?');
    this.db.transaction(() => {
      for (const entry of entries) insert.run(tableId, entry.seq, entry.hand, entry.timeMs, JSON.stringify(entry.event), JSON.stringify(entry.violations));
      snapshot.run(JSON.stringify(trackerSnapshot), tableId);
    })();
  };

  /** Saves the tracker snapshot alone (between events, e.g. at shutdown). */
  saveTrackerSnapshot(tableId: string, trackerSnapshot: unknown): void {
    this.db.prepare('UPDATE tables SET tracker = ? WHERE id = ?').run(JSON.stringify(trackerSnapshot), tableId);
  }

  /** The log of a table, in order; `afterSeq` and `limit` page through it. */
  events(tableId: string, afterSeq = -1, limit = 100000): LoggedEvent[] {
    const rows = this.db
      .prepare('SELECT seq, hand, time_ms, event, violations FROM events WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .all(tableId, afterSeq, limit) as Array<{ seq: number; hand: number; time_ms: number; event: string; violations: string }>;
    return rows.map((row) => ({ seq: row.seq, hand: row.hand, timeMs: row.time_ms, event: JSON.parse(row.event), violations: JSON.parse(row.violations) }));
  }

  /** Records the start of a hand. */
  startHand(tableId: string, match: number, hand: number, startedAtMs: number): void {
    this.db.prepare('INSERT OR REPLACE INTO hands (table_id, match, hand, started_at, ended_at, scores) VALUES (?, ?, ?, ?, NULL, NULL)').run(tableId, match, hand, startedAtMs);
  }

  /** Records a hand's end and scores (again after a correction). */
  endHand(tableId: string, hand: number, endedAtMs: number, scores: ScoreRow[]): void {
    this.db.prepare('UPDATE hands SET ended_at = ?, scores = ? WHERE table_id = ? AND hand = ?').run(endedAtMs, JSON.stringify(scores), tableId, hand);
  }

  /** Hands of a table, in order. */
  hands(tableId: string): StoredHand[] {
    const rows = this.db.prepare('SELECT * FROM hands WHERE table_id = ? ORDER BY hand').all(tableId) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      tableId,
      match: row.match as number,
      hand: row.hand as number,
      startedAtMs: row.started_at as number,
      endedAtMs: (row.ended_at as number | null) ?? null,
      scores: row.scores ? (JSON.parse(row.scores as string) as ScoreRow[]) : null,
    }));
  }

  /** Saves an evidence frame to disk; returns its id. */
  saveEvidence(tableId: string, id: string, bytes: Uint8Array, contentType: string): void {
    const dir = join(this.evidenceDir, tableId);
    mkdirSync(dir, { recursive: true });
    const file = `${id}.${contentType.split('/')[1] ?? 'bin'}`;
    writeFileSync(join(dir, file), bytes);
    this.db.prepare('INSERT OR REPLACE INTO evidence (table_id, id, file, content_type, created_at) VALUES (?, ?, ?, ?, ?)').run(tableId, id, file, contentType, Date.now());
  }

  /** Reads an evidence frame back; null when unknown. */
  evidence(tableId: string, id: string): { bytes: Buffer; contentType: string } | null {
    const row = this.db.prepare('SELECT file, content_type FROM evidence WHERE table_id = ? AND id = ?').get(tableId, id) as { file: string; content_type: string } | undefined;
    if (!row) return null;
    const path = join(this.evidenceDir, tableId, row.file);
    if (!existsSync(path)) return null;
    return { bytes: readFileSync(path), contentType: row.content_type };
  }

  /** Closes the database (checkpointing the WAL). */
  close(): void {
    this.db.close();
  }
}
