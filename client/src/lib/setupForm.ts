/**
 * The new-table form as plain data, and its pure conversion into the server's CreateTable body
 * with readable validation errors (shown next to the form, never thrown).
 */
import type { CreateTable, FrameSource } from '../../../server/protocol';

/** One seat row in the form. */
export interface SeatDraft {
  name: string;
  team: string;
  /** Handicap Nerts pile size; empty = the variant's. */
  nertsPileSize: string;
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
  const taken = new Set<string>();
  const seats = draft.seats.map((seat, index) => {
    const playerName = seat.name.trim();
    if (!playerName) errors.push(`Seat ${index + 1} needs a player name`);
    const pile = parseOptionalInt(seat.nertsPileSize, `Seat ${index + 1} Nerts pile size`, 1, 26, errors);
    const team = seat.team.trim();
    return {
      playerId: playerIdFrom(playerName || `seat-${index + 1}`, taken),
      name: playerName || `Seat ${index + 1}`,
      ...(team ? { team } : {}),
      ...(pile !== undefined ? { nertsPileSize: pile } : {}),
    };
  });
  const teamSizes = new Map<string, number>();
  for (const seat of seats) if (seat.team) teamSizes.set(seat.team, (teamSizes.get(seat.team) ?? 0) + 1);
  for (const [team, size] of teamSizes) if (size < 2) errors.push(`Team "${team}" has only one player`);
  const target = parseOptionalInt(draft.target, 'Target', 1, 10000, errors);
  // Knobs follow VariantKnobs in server/game/variants.ts: scoring knobs nest under `scoring`.
  const scoring: Record<string, number> = {};
  const penalty = parseOptionalInt(draft.nertsPenalty, 'Penalty per Nerts card', 0, 10, errors);
  if (penalty !== undefined) scoring.nertsPenalty = penalty;
  const bonus = parseOptionalInt(draft.callBonus, 'Call bonus', 0, 100, errors);
  if (bonus !== undefined) scoring.callBonus = bonus;
  const cap = parseOptionalInt(draft.handCap, 'Hand cap', 1, 1000, errors);
  if (cap !== undefined) scoring.handCap = cap;
  const knobs: Record<string, unknown> = {};
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
