/**
 * npm run bench:tracker -- [--players 3,4,5,6] [--seeds 1-6] [--hands 3] [--drop 0.1] [--misread 0.03]
 *   [--motion] [--parallel 2]
 *
 * The tracker and rules on the simulator's ground truth over many tables at once: one
 * `bench:referee --observations truth` run per players × seed (each in its own process, `--parallel`
 * at a time), summed. The numbers to compare tracker changes by, in about three minutes here for
 * the default 24 runs of 3 hands: hands exact, centre cards credited to the right player, races
 * ruled right and raised, per player count, and the violations raised (false alarms: the simulated
 * players break no rule). Prints each run's line to stderr and one final JSON line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { positiveInt as positiveIntArg } from './args';

function usage(message: string): never {
  console.error(`bench:tracker: ${message}\nusage: npm run bench:tracker -- [--players 3,4,5,6] [--seeds 1-6] [--hands 3] [--drop 0.1] [--misread 0.03] [--motion] [--parallel 2]`);
  process.exit(2);
}

/** "3,4,6" or "1-6" (or a mix: "1-3,7") as a list of positive integers. */
export function parseList(value: string, name: string): number[] {
  const out: number[] = [];
  for (const part of value.split(',')) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!range) throw new Error(`--${name} takes numbers and ranges such as 1-6 or 3,4,5 (got "${value}")`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from < 1 || to < from) throw new Error(`--${name}: "${part}" is not a range of positive integers`);
    for (let n = from; n <= to; n += 1) out.push(n);
  }
  return out;
}

/** What one `bench:referee --observations truth` run reports (the fields summed here). */
interface RunLine {
  players: number;
  seed: number;
  handsScored: number;
  handsExact: number;
  centreCards: { truth: number; seen: number; right: number; named: number };
  disputes: { right: number; truth: number; seen: number };
  nertsErrorPerPlayer: { mean: number; max: number };
  /** Violations raised on these simulated hands, whose players break no rule (absent in older runs' lines). */
  falseAlarms?: { total: number; byCode: Record<string, number> };
}

/** The sweep's totals over its runs. */
export function sumRuns(runs: readonly RunLine[]) {
  const byPlayers: Record<string, { exact: number; hands: number }> = {};
  let exact = 0;
  let hands = 0;
  const centre = { truth: 0, right: 0 };
  const races = { truth: 0, right: 0, seen: 0 };
  let nertsErrorMax = 0;
  const falseAlarms = { total: 0, byCode: {} as Record<string, number> };
  for (const run of runs) {
    const runExact = Math.round(run.handsExact * run.handsScored);
    exact += runExact;
    hands += run.handsScored;
    const entry = (byPlayers[String(run.players)] ??= { exact: 0, hands: 0 });
    entry.exact += runExact;
    entry.hands += run.handsScored;
    centre.truth += run.centreCards.truth;
    centre.right += run.centreCards.right;
    races.truth += run.disputes.truth;
    races.right += run.disputes.right;
    races.seen += run.disputes.seen;
    nertsErrorMax = Math.max(nertsErrorMax, run.nertsErrorPerPlayer.max);
    falseAlarms.total += run.falseAlarms?.total ?? 0;
    for (const [code, n] of Object.entries(run.falseAlarms?.byCode ?? {})) falseAlarms.byCode[code] = (falseAlarms.byCode[code] ?? 0) + n;
  }
  return { runs: runs.length, hands, handsExact: exact, byPlayers, centreCards: centre, races, nertsErrorMax, falseAlarms };
}

function runOne(args: string[]): Promise<RunLine> {
  const script = fileURLToPath(new URL('./bench-referee.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    // The run's progress lines are dropped; its last few are kept to say why it failed.
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) return reject(new Error(`bench:referee ${args.join(' ')} exited ${code}:\n${err.trim().split('\n').slice(-5).join('\n')}`));
      resolve(JSON.parse(last) as RunLine);
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { players: { type: 'string' }, seeds: { type: 'string' }, hands: { type: 'string' }, drop: { type: 'string' }, misread: { type: 'string' }, motion: { type: 'boolean' }, parallel: { type: 'string' } },
    strict: true,
  });
  let players: number[];
  let seeds: number[];
  try {
    players = parseList(values.players ?? '3,4,5,6', 'players');
    seeds = parseList(values.seeds ?? '1-6', 'seeds');
  } catch (error) {
    usage((error as Error).message);
  }
  if (players.some((p) => p < 2 || p > 6)) usage('--players must lie in 2–6');
  const hands = positiveIntArg(values.hands, 'hands', 3, usage);
  const parallel = positiveIntArg(values.parallel, 'parallel', 2, usage);
  const drop = values.drop ?? '0.1';
  const misread = values.misread ?? '0.03';
  const jobs = players.flatMap((p) => seeds.map((seed) => ({ p, seed })));
  const runs: RunLine[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { p, seed } = jobs[next++];
      const args = ['--players', String(p), '--seed', String(seed), '--hands', String(hands), '--observations', 'truth', '--drop', drop, '--misread', misread, ...(values.motion ? ['--motion'] : [])];
      const run = await runOne(args);
      runs.push(run);
      console.error(`${p} players seed ${seed}: ${Math.round(run.handsExact * run.handsScored)}/${run.handsScored} exact, centre ${run.centreCards.right}/${run.centreCards.truth}, races ${run.disputes.right}/${run.disputes.truth} (raised ${run.disputes.seen}), false alarms ${run.falseAlarms?.total ?? 0}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  console.log(JSON.stringify({ bench: 'tracker', observations: 'truth (tracker + rules only, no recogniser)', drop: Number(drop), misread: Number(misread), motion: values.motion === true, handsPerRun: hands, ...sumRuns(runs), wallS: Math.round((performance.now() - started) / 100) / 10 }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: Error) => {
    console.error(`bench:tracker: ${error.message}`);
    process.exit(1);
  });
}
