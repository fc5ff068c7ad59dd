/**
 * The new-table form as plain data, and its pure conversion into the server's CreateTable body
 * with readable validation errors (shown next to the form, never thrown).
 */
import type { CreateTable, FrameSource, TableInfo, UpdateSetup } from '../../../server/protocol';

/** One seat row in the form. */
export interface SeatDraft {
  name: string;
  team: string;
  /** Handicap Nerts pile size; empty = the variant's. */
  nertsPileSize: string;
  /** Kept when editing an existing table, so a renamed player keeps their id, deck and history. */
  playerId?: string;
  deckId?: string;
}

/** The whole form. Numbers are kept as the strings typed so half-typed input is not lost. */
export interface SetupDraft {
  name: string;
  seats: SeatDraft[];
  variant: string;
  target: string;
  /** Knob overrides by name (empty string = the preset's value). */
  nertsPenalty: string;
  callBonus: string;
  nertsPileSize: string;
  handCap: string;
  source: FrameSource;
  /** Knobs of an existing table that the form has no field for, kept as they are when saving. */
  otherKnobs?: Record<string, unknown>;
}

/** Most and fewest seats a table has. */
export const MIN_SEATS = 2;
export const MAX_SEATS = 6;

/** A fresh form for `seatCount` players. */
export function defaultDraft(seatCount = 4): SetupDraft {
  const names = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fin'];
  return {
    name: 'Kitchen table',
    seats: names.slice(0, seatCount).map((name) => ({ name, team: '', nertsPileSize: '' })),
    variant: 'nertz',
    target: '',
    nertsPenalty: '',
    callBonus: '',
    nertsPileSize: '',
    handCap: '',
    source: 'camera',
  };
}

/** A stable id from a display name: lower case letters, digits, `-`; unique within the table. */
export function playerIdFrom(name: string, taken: Set<string>): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'player';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

function parseOptionalInt(text: string, label: string, min: number, max: number, errors: string[]): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  if (!/^-?\d+$/.test(trimmed)) {
    errors.push(`${label} must be a whole number`);
    return undefined;
  }
  const value = Number(trimmed);
  if (value < min || value > max) {
    errors.push(`${label} must be between ${min} and ${max}`);
    return undefined;
  }
  return value;
}

/** Validates the form and builds the request body; `errors` is empty when the body is usable. */
export function draftToCreateTable(draft: SetupDraft): { body: CreateTable | null; errors: string[] } {
  const errors: string[] = [];
  const name = draft.name.trim();
  if (!name) errors.push('Give the table a name');
  if (draft.seats.length < MIN_SEATS || draft.seats.length > MAX_SEATS) errors.push(`A table has ${MIN_SEATS} to ${MAX_SEATS} seats`);
  // Ids kept from an existing table are reserved first, so new seats never take them.
  const taken = new Set<string>(draft.seats.flatMap((seat) => (seat.playerId ? [seat.playerId] : [])));
  const seats = draft.seats.map((seat, index) => {
    const playerName = seat.name.trim();
    if (!playerName) errors.push(`Seat ${index + 1} needs a player name`);
    const pile = parseOptionalInt(seat.nertsPileSize, `Seat ${index + 1} Nerts pile size`, 1, 26, errors);
    const team = seat.team.trim();
    return {
      playerId: seat.playerId ?? playerIdFrom(playerName || `seat-${index + 1}`, taken),
      name: playerName || `Seat ${index + 1}`,
      ...(seat.deckId ? { deckId: seat.deckId } : {}),
      ...(team ? { team } : {}),
      ...(pile !== undefined ? { nertsPileSize: pile } : {}),
    };
  });
  const teamSizes = new Map<string, number>();
  for (const seat of seats) if (seat.team) teamSizes.set(seat.team, (teamSizes.get(seat.team) ?? 0) + 1);
  for (const [team, size] of teamSizes) if (size < 2) errors.push(`Team "${team}" has only one player`);
  const target = parseOptionalInt(draft.target, 'Target', 1, 10000, errors);
  // Knobs follow VariantKnobs in server/game/variants.ts: scoring knobs nest under `scoring`.
  const { scoring: otherScoring, ...otherKnobs } = draft.otherKnobs ?? {};
  const scoring: Record<string, unknown> = typeof otherScoring === 'object' && otherScoring !== null ? { ...otherScoring } : {};
  const penalty = parseOptionalInt(draft.nertsPenalty, 'Penalty per Nerts card', 0, 10, errors);
  if (penalty !== undefined) scoring.nertsPenalty = penalty;
  const bonus = parseOptionalInt(draft.callBonus, 'Call bonus', 0, 100, errors);
  if (bonus !== undefined) scoring.callBonus = bonus;
  const cap = parseOptionalInt(draft.handCap, 'Hand cap', 1, 1000, errors);
  if (cap !== undefined) scoring.handCap = cap;
  const knobs: Record<string, unknown> = { ...otherKnobs };
  const pileSize = parseOptionalInt(draft.nertsPileSize, 'Nerts pile size', 1, 26, errors);
  if (pileSize !== undefined) knobs.nertsPileSize = pileSize;
  if (Object.keys(scoring).length) knobs.scoring = scoring;
  if (errors.length) return { body: null, errors };
  const body: CreateTable = {
    name,
    seats,
    variant: draft.variant,
    source: draft.source,
    ...(target !== undefined ? { target } : {}),
    ...(Object.keys(knobs).length ? { knobs } : {}),
  };
  return { body, errors };
}

/** The form filled from an existing table (ids and decks kept; knobs without a field kept aside). */
export function draftFromTable(table: TableInfo): SetupDraft {
  const { nertsPileSize, scoring, ...otherKnobs } = table.knobs;
  const scoringKnobs: Record<string, unknown> = typeof scoring === 'object' && scoring !== null ? { ...(scoring as Record<string, unknown>) } : {};
  const take = (record: Record<string, unknown>, key: string): string => {
    const value = record[key];
    delete record[key];
    return typeof value === 'number' ? String(value) : '';
  };
  const nertsPenalty = take(scoringKnobs, 'nertsPenalty');
  const callBonus = take(scoringKnobs, 'callBonus');
  const handCap = take(scoringKnobs, 'handCap');
  const kept: Record<string, unknown> = { ...otherKnobs };
  if (Object.keys(scoringKnobs).length) kept.scoring = scoringKnobs;
  // A non-numeric pile-size knob has no field: keep it as it is rather than drop it.
  if (nertsPileSize !== undefined && typeof nertsPileSize !== 'number') kept.nertsPileSize = nertsPileSize;
  return {
    name: table.name,
    seats: table.seats.map((seat) => ({
      name: seat.name,
      team: seat.team ?? '',
      nertsPileSize: seat.nertsPileSize === undefined ? '' : String(seat.nertsPileSize),
      playerId: seat.playerId,
      deckId: seat.deckId,
    })),
    variant: table.variant,
    target: String(table.target),
    nertsPenalty,
    callBonus,
    nertsPileSize: typeof nertsPileSize === 'number' ? String(nertsPileSize) : '',
    handCap,
    source: table.source,
    otherKnobs: kept,
  };
}

/** Validates the form and builds the body of PUT /api/tables/:id/setup (the frame source is not part of it). */
export function draftToUpdateSetup(draft: SetupDraft): { body: UpdateSetup | null; errors: string[] } {
  const { body, errors } = draftToCreateTable(draft);
  if (!body) return { body: null, errors };
  const { source: _source, ...setup } = body;
  return { body: setup, errors };
}
