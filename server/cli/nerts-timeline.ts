/**
 * npm run nerts-timeline -- FILE [--player ID] [--hand K] [--wrong]
 *
 * Each player's Nerts pile over a recording (`record:observations`, or `bench:referee --record`):
 * the truth's departures beside the tracker's new tops by name and by look, its counts and the
 * call (server/tables/nerts-timeline.ts). `--wrong` shows only players whose final count is off.
 */
import { parseArgs } from 'node:util';
import { openRecording } from '../tables/recording';
import { nertsTimeline } from '../tables/nerts-timeline';

function usage(message: string): never {
  console.error(`nerts-timeline: ${message}\nusage: npm run nerts-timeline -- FILE [--player ID] [--hand K] [--wrong]`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { player: { type: 'string' }, hand: { type: 'string' }, wrong: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (positionals.length !== 1) usage('one recording FILE is required');
  const hand = values.hand === undefined ? null : Number(values.hand);
  if (hand !== null && !(Number.isInteger(hand) && hand >= 0)) usage('--hand must be a hand index (0, 1, …)');
  const { meta, frames } = await openRecording(positionals[0]).catch((error: Error) => usage(error.message));
  for (const timeline of await nertsTimeline(meta, frames)) {
    if (hand !== null && timeline.handIndex !== hand) continue;
    for (const player of timeline.players) {
      if (values.player && player.id !== values.player) continue;
      if (values.wrong && player.trackerLeft === player.truthLeft) continue;
      console.log(`hand ${timeline.handIndex} ${player.id}: ${player.trackerLeft} left counted, ${player.truthLeft} true`);
      for (const row of player.rows) console.log(`  ${(row.timeMs / 1000).toFixed(2).padStart(7)} s  ${row.kind.padEnd(5)} ${row.text}`);
    }
  }
}

main().catch((error: Error) => {
  console.error(`nerts-timeline: ${error.message}`);
  process.exit(1);
});
