/**
 * npm run owners -- FILE [--hand K] [--wrong]
 * npm run owners -- --sim --players P --seed S [--hands 3] [--drop 0.1] [--misread 0.03] [--motion] [--hand K] [--wrong]
 *
 * Who the tracker credited each centre card to, against the truth, with the cue that named the
 * player (server/tables/owner-report.ts). Over a recording (`record:observations`, or
 * `bench:referee --record`), or with `--sim` over the simulator's ground truth exactly as one
 * `bench:tracker` run sees it (same table, noise and noise seed as `bench:referee --observations
 * truth`). `--wrong` lists only the cards credited to the wrong player. Ends with one JSON line:
 * plays, credited right, and per cue right / wrong.
 */
import { parseArgs } from 'node:util';
import { createSimTable } from '../sim/live';
import { openRecording } from '../tables/recording';
import { ownerReport, tallyByCue, type OwnerHand, type OwnerRow } from '../tables/owner-report';
import { truthFrames, truthNoiseSeed } from '../tables/truth-referee';
import { finiteNumber } from './args';

const USAGE = `usage: npm run owners -- FILE [--hand K] [--wrong]
       npm run owners -- --sim --players P --seed S [--hands 3] [--drop 0.1] [--misread 0.03] [--motion] [--hand K] [--wrong]`;

function usage(message: string): never {
  console.error(`owners: ${message}\n${USAGE}`);
  process.exit(2);
}

function describe(row: OwnerRow): string {
  const race = row.race ? `  (race: ${row.race.winner ?? '?'} beat ${row.race.loser} by ${row.race.marginMs === null ? '?' : Math.round(row.race.marginMs)} ms)` : '';
  const seen = row.seenOwner === null ? 'never reported' : `${row.seenOwner} by ${row.cue}`;
  return `${(row.landMs / 1000).toFixed(2).padStart(7)} s  ${row.card.padEnd(3)} ${row.truthOwner} → ${seen}${race}`;
}

/** The options this command takes (see USAGE). */
interface Options {
  sim?: boolean;
  players?: string;
  seed?: string;
  hands?: string;
  drop?: string;
  misread?: string;
  motion?: boolean;
}

async function report(values: Options, positionals: string[]): Promise<OwnerHand[]> {
  if (values.sim) {
    if (positionals.length) usage('--sim takes no FILE');
    const players = finiteNumber(values.players, 'players', 3, usage);
    const seed = finiteNumber(values.seed, 'seed', 1, usage);
    const hands = finiteNumber(values.hands, 'hands', 3, usage);
    const drop = finiteNumber(values.drop, 'drop', 0.1, usage);
    const misread = finiteNumber(values.misread, 'misread', 0.03, usage);
    const sim = await createSimTable({ players, seed, fps: 30, hands, render: false }).catch((error: Error) => usage(error.message));
    return ownerReport(sim, truthFrames(sim, { drop, misread, motion: values.motion === true }, truthNoiseSeed(seed)));
  }
  if (positionals.length !== 1) usage('one recording FILE (or --sim) is required');
  const { meta, frames } = await openRecording(positionals[0]).catch((error: Error) => usage(error.message));
  return ownerReport(meta, frames);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      hand: { type: 'string' },
      wrong: { type: 'boolean' },
      sim: { type: 'boolean' },
      players: { type: 'string' },
      seed: { type: 'string' },
      hands: { type: 'string' },
      drop: { type: 'string' },
      misread: { type: 'string' },
      motion: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const hand = values.hand === undefined ? null : Number(values.hand);
  if (hand !== null && !(Number.isInteger(hand) && hand >= 0)) usage('--hand must be a hand index (0, 1, …)');
  const all: OwnerRow[] = [];
  for (const entry of await report(values, positionals)) {
    if (hand !== null && entry.handIndex !== hand) continue;
    all.push(...entry.rows);
    const right = entry.rows.filter((row) => row.seenOwner === row.truthOwner).length;
    console.log(`hand ${entry.handIndex}: ${right} of ${entry.rows.length} centre cards credited right; by cue ${JSON.stringify(entry.byCue)}`);
    for (const row of entry.rows) if (!values.wrong || row.seenOwner !== row.truthOwner) console.log(`  ${describe(row)}`);
  }
  console.log(JSON.stringify({ plays: all.length, right: all.filter((row) => row.seenOwner === row.truthOwner).length, byCue: tallyByCue(all) }));
}

main().catch((error: Error) => {
  console.error(`owners: ${error.message}`);
  process.exit(1);
});
