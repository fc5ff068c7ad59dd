/**
 * Match history as CSV (one row per player per scored hand). Pure.
 */
import type { StoredHand } from './store';

const COLUMNS = ['match', 'hand', 'player', 'team', 'centreCards', 'nertsLeft', 'bonus', 'handScore', 'total', 'rank'] as const;

function cell(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text with a header line. Hands not scored yet are left out. */
export function historyCsv(hands: StoredHand[]): string {
  const lines = [COLUMNS.join(',')];
  for (const hand of hands) {
    for (const row of hand.scores ?? []) {
      lines.push([hand.match, hand.hand, row.player, row.team, row.centreCards, row.nertsLeft, row.bonus, row.handScore, row.total, row.rank].map(cell).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
