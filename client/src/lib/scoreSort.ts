/** Pure helpers for the score sort: penalties from score rows, the correction history from the log, and the camera's back count. */
import type { LoggedEvent, ScoreRow, TableView } from '../../../server/protocol';
import type { CardCode } from '../../../server/game/cards';

/**
 * The Nerts penalty a row paid, in points (positive): what is left after centre cards and bonus.
 * Derived so the table never disagrees with the server's hand score, whatever the variant.
 */
export function penaltyOf(row: ScoreRow): number {
  return Math.max(0, row.centreCards + row.bonus - row.handScore);
}

/** A correction as listed on the score sort. */
export interface CorrectionEntry {
  seq: number;
  hand: number;
  timeMs: number;
  player: string;
  centreCards?: number;
  nertsLeft?: number;
  reason: string;
}

/** Every correction in the given logs (merged by seq), newest first. */
export function correctionsOf(...logs: LoggedEvent[][]): CorrectionEntry[] {
  const bySeq = new Map<number, CorrectionEntry>();
  for (const log of logs) {
    for (const entry of log) {
      if (entry.event.type !== 'correction') continue;
      const { player, centreCards, nertsLeft, reason } = entry.event;
      bySeq.set(entry.seq, { seq: entry.seq, hand: entry.hand, timeMs: entry.timeMs, player, centreCards, nertsLeft, reason });
    }
  }
  return [...bySeq.values()].sort((a, b) => b.seq - a.seq);
}

/** The reason a one-click "use camera count" correction carries into the log. */
export const CAMERA_COUNT_REASON = 'camera back count';

/** What the camera counted for one player during the score sort (protocol TableView.backCheck). */
export interface CameraCount {
  backsSeen: number;
  agrees: boolean;
}

/** The camera's back count for `playerId`, or null when the camera has not counted this sort. */
export function cameraCountOf(view: TableView, playerId: string): CameraCount | null {
  const row = view.backCheck?.players.find((player) => player.player === playerId);
  return row ? { backsSeen: row.backsSeen, agrees: row.agrees } : null;
}

/** The correction that adopts the camera's count as `playerId`'s centre cards (POST .../corrections body). */
export function cameraCorrection(playerId: string, count: CameraCount): { player: string; centreCards: number; reason: string } {
  return { player: playerId, centreCards: count.backsSeen, reason: CAMERA_COUNT_REASON };
}

/**
 * The corrections that adopt every camera count that differs, lowered counts first: a lowered
 * count frees the cards it drops, which a raised count then takes (their plays keep their cards).
 */
export function cameraCorrections(view: TableView): Array<{ player: string; centreCards: number; reason: string }> {
  return (view.backCheck?.players ?? [])
    .filter((player) => !player.agrees)
    .sort((a, b) => a.backsSeen - a.centreCards - (b.backsSeen - b.centreCards))
    .map((player) => cameraCorrection(player.player, player));
}

/** How many players' credited centre cards the camera disagrees with (0 when it has not counted). */
export function cameraMismatches(view: TableView): number {
  return view.backCheck?.players.filter((player) => !player.agrees).length ?? 0;
}

/**
 * The centre cards of a scoring entity (a player, or a team's players together) that the camera
 * credited on weak evidence of who played them (TableView player `unsureCards`): the cards to
 * check first when sorting by back.
 */
export function unsureCentreOf(view: TableView, entityId: string): CardCode[] {
  return view.players.filter((player) => player.id === entityId || player.team === entityId).flatMap((player) => player.unsureCards ?? []);
}
