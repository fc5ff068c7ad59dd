/**
 * Pure presentation helpers: clock formats, player colours and names, and one line of text per
 * log entry for the dashboard feed and the overlay ticker.
 */
import { ownerEvidenceWeak, type LoggedEvent, type TableInfo, type TableView } from '../../../server/protocol';
import type { CardCode } from '../../../server/game/cards';
import { cardShort, SUIT_NAMES } from './cardNames';

/** Seat colours (deck backs), chosen to stay apart for colour-blind viewers. */
export const SEAT_COLOURS = ['#2a4fa0', '#c2571a', '#1f7a5a', '#8b2f8f', '#b8860b', '#3b3b3b'] as const;

/** The colour of a seat's deck back. */
export function seatColour(seat: number): string {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}

/** Duration as m:ss (or h:mm:ss), milliseconds in; negative values count as zero. */
export function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/** Display names by player id, from the table setup or the live view (ids as fallback). */
export function playerNames(table: TableInfo | null, view: TableView | null): Map<string, string> {
  const names = new Map<string, string>();
  for (const seat of table?.seats ?? []) names.set(seat.playerId, seat.name);
  for (const player of view?.players ?? []) if (!names.has(player.id)) names.set(player.id, player.name);
  return names;
}

/** The kind of a feed line, which sets its colour. */
export type FeedKind = 'play' | 'dispute' | 'violation' | 'call' | 'info' | 'correction';

/** One line of the feed. */
export interface FeedLine {
  seq: number;
  timeMs: number;
  kind: FeedKind;
  text: string;
  card?: CardCode;
}

/** Describes one log entry for people; violations raised by it become their own lines after it. */
export function describeEntry(entry: LoggedEvent, names: Map<string, string>): FeedLine[] {
  const name = (id: string): string => names.get(id) ?? id;
  const base = { seq: entry.seq, timeMs: entry.timeMs };
  const event = entry.event;
  const lines: FeedLine[] = [];
  switch (event.type) {
    case 'hand-started':
      lines.push({ ...base, kind: 'info', text: `Hand ${event.hand} started` });
      break;
    case 'card-played':
      lines.push({
        ...base,
        kind: 'play',
        card: event.card as CardCode,
        text: `${name(event.player)} played ${cardShort(event.card as CardCode)}${event.newPile ? ' (new pile)' : ''}${ownerEvidenceWeak(event.ownerBy) ? ' (player unsure)' : ''}`,
      });
      break;
    case 'foundation-completed':
      lines.push({ ...base, kind: 'info', text: `Pile ${event.foundationId} completed` });
      break;
    case 'pile-revised':
      lines.push({ ...base, kind: 'info', text: `Pile ${event.foundationId} is ${SUIT_NAMES[event.suit]}: ${event.reason}` });
      break;
    case 'race-reversed':
      lines.push({ ...base, kind: 'info', text: `${name(event.winner)}'s ${cardShort(event.card as CardCode)} stays on pile ${event.foundationId}: ${event.reason}` });
      break;
    case 'owner-revised':
      lines.push({ ...base, kind: 'info', text: `${cardShort(event.card as CardCode)} on pile ${event.foundationId} is ${name(event.to)}'s, not ${name(event.from)}'s: ${event.reason}` });
      break;
    case 'play-withdrawn':
      lines.push({ ...base, kind: 'info', text: `${cardShort(event.card as CardCode)} taken off pile ${event.foundationId}: ${event.reason}` });
      break;
    case 'nerts-count':
      lines.push({ ...base, kind: 'info', text: `${name(event.player)}: ${event.left} Nerts card${event.left === 1 ? '' : 's'} left${event.revised ? ` (revised: ${event.revised})` : ''}` });
      break;
    case 'dispute-opened':
      lines.push({
        ...base,
        kind: 'dispute',
        text: `Dispute on ${event.foundationId}: ${name(event.first.player)} ${cardShort(event.first.card as CardCode)} vs ${name(event.second.player)} ${cardShort(event.second.card as CardCode)}`,
      });
      break;
    case 'dispute-resolved':
      lines.push({ ...base, kind: 'dispute', text: `Dispute ruled for ${name(event.winner)}${event.by === 'referee' ? ' (referee)' : ''}` });
      break;
    case 'call':
      lines.push({ ...base, kind: 'call', text: `${name(event.player)} called Nerts!${event.manual ? ' (manual)' : ''}` });
      break;
    case 'stall':
      lines.push({ ...base, kind: 'info', text: 'Play has stalled: everyone rotate your stock' });
      break;
    case 'stuck-rotation':
      lines.push({ ...base, kind: 'info', text: 'Stuck rotation' });
      break;
    case 'hand-ended':
      lines.push({ ...base, kind: 'info', text: 'Hand ended: score sort' });
      break;
    case 'correction': {
      const parts: string[] = [];
      if (event.centreCards !== undefined) parts.push(`centre ${event.centreCards}`);
      if (event.nertsLeft !== undefined) parts.push(`Nerts left ${event.nertsLeft}`);
      lines.push({ ...base, kind: 'correction', text: `Correction for ${name(event.player)}: ${parts.join(', ') || 'no change'} (${event.reason})` });
      break;
    }
    case 'setup-changed':
      lines.push({ ...base, kind: 'info', text: `Setup changed by the ${event.by}: ${event.setup.seats.map((seat) => seat.name).join(', ')} · ${event.setup.variant} to ${event.setup.target}` });
      break;
    default: {
      const unknown = event as { type?: unknown };
      lines.push({ ...base, kind: 'info', text: `Event ${String(unknown.type)}` });
    }
  }
  for (const violation of entry.violations) {
    lines.push({ ...base, kind: 'violation', text: `${violation.player ? `${name(violation.player)}: ` : ''}${violation.message} [${violation.code}]` });
  }
  return lines;
}

/** The feed, newest first, at most `limit` lines; `kinds` keeps only those kinds. */
export function feedLines(events: LoggedEvent[], names: Map<string, string>, limit = 60, kinds?: FeedKind[]): FeedLine[] {
  const lines: FeedLine[] = [];
  for (let index = events.length - 1; index >= 0 && lines.length < limit; index--) {
    const described = describeEntry(events[index], names).reverse();
    for (const line of described) {
      if (kinds && !kinds.includes(line.kind)) continue;
      lines.push(line);
      if (lines.length >= limit) break;
    }
  }
  return lines;
}
