/**
 * npm run owners -- FILE [--hand K] [--wrong]
 *
 * Who the tracker credited each centre card to over a recording (`record:observations`, or
 * `bench:referee --record`), against the truth, with the cue that named the player
 * (server/tables/owner-report.ts). `--wrong` lists only the cards credited to the wrong player.
 * Ends with one JSON line: plays, credited right, and per cue right / wrong.
 */
import { parseArgs } from 'node:util';
import { openRecording } from '../tables/recording';
import { ownerReport, tallyByCue, type OwnerRow } from '../tables/owner-report';

function usage(message: string): never {
  console.error(`owners: ${message}\nusage: npm run owners -- FILE [--hand K] [--wrong]`);
  process.exit(2);
}

function describe(row: OwnerRow): string {
  const race = row.race ? `  (race: ${row.race.winner ?? '?'} beat ${row.race.loser} by ${row.race.marginMs === null ? '?' : Math.round(row.race.marginMs)} ms)` : '';
  const seen = row.seenOwner === null ? 'never reported' : `${row.seenOwner} by ${row.cue}`;
  return `${(row.landMs / 1000).toFixed(2).padStart(7)} s  ${row.card.padEnd(3)} ${row.truthOwner} → ${seen}${race}`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { hand: { type: 'string' }, wrong: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1) usage('one recording FILE is required');
  const hand = values.hand === undefined ? null : Number(values.hand);
  if (hand !== null && !(Number.isInteger(hand) && hand >= 0)) usage('--hand must be a hand index (0, 1, …)');
  const { meta, frames } = await openRecording(positionals[0]).catch((error: Error) => usage(error.message));
  const all: OwnerRow[] = [];
  for (const report of await ownerReport(meta, frames)) {
    if (hand !== null && report.handIndex !== hand) continue;
    all.push(...report.rows);
    const right = report.rows.filter((row) => row.seenOwner === row.truthOwner).length;
    console.log(`hand ${report.handIndex}: ${right} of ${report.rows.length} centre cards credited right; by cue ${JSON.stringify(report.byCue)}`);
    for (const row of report.rows) if (!values.wrong || row.seenOwner !== row.truthOwner) console.log(`  ${describe(row)}`);
  }
  console.log(JSON.stringify({ plays: all.length, right: all.filter((row) => row.seenOwner === row.truthOwner).length, byCue: tallyByCue(all) }));
}

main().catch((error: Error) => {
  console.error(`owners: ${error.message}`);
  process.exit(1);
});
