/**
 * npm run bench:referee -- --players N --hands K --seed S [--art DIR] [--camera top|oblique] [--use-back-count]
 *   [--tables T] [--fps F] [--workers W] [--width 1280 --height 720]
 *   [--observations truth [--drop 0.1] [--misread 0.03] [--motion]] [--observations FILE[,FILE…]] [--frames N]
 *   [--record FILE]
 *
 * Peer help between the recognition workers is on (server default); NERTS_PEER_HELP=0 turns it off.
 *
 * Each hand ends with the score sort (server/sim/score-sort.ts): the centre cards dealt out face
 * down by owner. The JSON line's `scoreSort` compares the camera's back count per player with the
 * truth; `--use-back-count` makes the bench act as a referee who adopts the camera's count
 * (the score-sort page's "Use camera count") before scoring, so `handsExact` then includes it.
 *
 * `--prerender` renders every frame before streaming, so frames go out at `--fps` however slow
 * the renderer is (it shares the CPU with the server otherwise and sets the pace). The frames
 * are kept in `.cache/prerender/` for the next run of the same table by the same drawing code
 * (server/cli/prerender-cache.ts): rendering a 3-player table's two hands takes 5-9 minutes here.
 * `--frames N` stops each table after N frames (throughput only: unfinished hands are not
 * scored), for multi-table runs on a small machine.
 *
 * Plays simulated hands through the real server over WebSocket (camera socket, worker-thread
 * recogniser, tracker, rules) and compares each scored hand with the simulator's ground truth.
 * Prints progress to stderr and one final JSON line to stdout: handsExact (fraction of hands
 * whose every score is exact), centre and Nerts count errors per player, disputes ruled right,
 * fps, p50Ms, p95Ms (receipt → observations, over the whole run; playP50Ms/playP95Ms for frames
 * read during play, sortP50Ms/sortP95Ms for the score sort's frames read as usual,
 * wholeReadP95Ms for its whole reads), dropped frames.
 *
 * `--observations truth` measures the tracker and rules alone: no rendering, no recogniser, no
 * server; observations come from the simulator's ground truth with seeded noise. Its numbers
 * are an upper bound for the full pipeline, labelled as such in the JSON line. `--motion` adds
 * what moved (each moving hand and forearm as 64-px cells, server/tracker/sim-observations.ts
 * sceneMotion), so the hand cues are measured too; without it the frames carry no motion.
 *
 * `--record FILE` writes what the server's tracker was given on the first table (every frame it
 * stepped on, the referee's calls, each hand's truth) as a recording (server/tables/recording.ts),
 * so a live run's mistakes can be refereed again offline, exactly as they happened.
 *
 * `--observations FILE[,FILE…]` referees recordings of the real recogniser's observations on
 * simulated hands (`npm run record:observations`; server/tables/recording.ts) through the
 * tracker and rules: the same accuracy numbers as the full pipeline for that recogniser output,
 * in seconds rather than minutes (the recording is one worker reading every other frame).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { positiveInt as positiveIntArg } from './args';
import WebSocket from 'ws';
import { buildApp } from '../app';
import { createSimTable, type SimFrame, type SimTable } from '../sim/live';
import { simCalibration } from '../tables/sim-calibration';
import { BackShowings, backViews } from '../tables/sim-feed';
import { openRecording, RecordingWriter } from '../tables/recording';
import type { LiveTable } from '../tables/live-table';
import { refereeFromTruth, refereeObservations, truthNoiseSeed, type TruthRefereedHand } from '../tables/truth-referee';
import type { CreatedTable, PipelineStats, TableView } from '../protocol';
import type { HandTruth } from '../sim/bots/engine';
import { LatencyHistogram } from '../tables/stats';
import { prerenderKey, readPrerendered, writePrerendered } from './prerender-cache';

/** Per-hand comparison with the ground truth. */
interface HandResult {
  table: number;
  hand: number;
  exact: boolean;
  /** Centre counts exact against the truth recounted under the variant's call grace (see playsAfterCall). */
  centreExactUnderRules: boolean;
  /** Truth plays that landed after the call plus the variant's grace: the simulator counts them, the rules send them back. */
  playsAfterCall: number;
  centreErrors: number[];
  nertsErrors: number[];
  /** Per player, seen vs truth: "p1 centre 5/7 nerts 0/0". */
  perPlayer: string[];
  disputesTruth: number;
  disputesRight: number;
  /** Disputes the server raised (right or not). */
  disputesSeen: number;
  scoresSeen: Record<string, number>;
  scoresTruth: Record<string, number>;
  /**
   * The score sort (full pipeline only): per player, the backs the camera counted against the
   * truth's centre cards, whether the referee adopted the counts, and the tracker's counts before.
   */
  backCount?: { seen: number[]; errors: number[]; tracker: number[]; adopted: boolean; trackerCountsExact: boolean; callByReferee: boolean };
  /**
   * Centre cards card by card (tracker-only modes, where the rules state is at hand): the truth's,
   * those seen, those seen with the right owner (`right`) and those seen whatever the owner (`named`).
   */
  centreCards?: { truth: number; seen: number; right: number; named: number };
  /**
   * Violations the rules raised this hand (tracker-only modes): the simulated players never break
   * a rule, so each is a false alarm a referee would have to dismiss. "code card @ s".
   */
  alarms?: string[];
}

function usage(message: string): never {
  console.error(`bench:referee: ${message}\nusage: npm run bench:referee -- --players N --hands K --seed S [--art DIR] [--camera top|oblique] [--tables T] [--fps F] [--workers W] [--prerender] [--use-back-count] [--record FILE]`);
  process.exit(2);
}

const positiveInt = (value: string | undefined, name: string, fallback: number): number => positiveIntArg(value, name, fallback, usage);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Scores of a hand by scoring entity (player or team), from the server's score rows. */
function entityScores(view: TableView): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const row of view.scores ?? []) scores[row.team ?? row.player] = row.handScore;
  return scores;
}

/** One line about a scored hand, seen vs truth. */
function describe(result: HandResult): string {
  return (
    `table ${result.table} hand ${result.hand}: ${result.exact ? 'exact' : 'NOT exact'}; scores ${JSON.stringify(result.scoresSeen)} vs truth ${JSON.stringify(result.scoresTruth)} ` +
    `(seen/truth: ${result.perPlayer.join(', ')}); disputes ${result.disputesRight}/${result.disputesTruth}` +
    (result.alarms?.length ? `; false alarms: ${result.alarms.join(', ')}` : '') +
    (result.backCount ? `; score sort: backs counted ${result.backCount.seen.join('/')} (errors ${result.backCount.errors.join('/')}; the tracker had ${result.backCount.tracker.join('/')})${result.backCount.adopted ? ', adopted' : ''}${result.backCount.callByReferee ? ', call made by the referee' : ''}` : '')
  );
}

/** Seen centre cards against the truth's, card by card (each deck holds one copy of a card, so card + owner is unique). */
function compareCentre(seen: ReadonlyArray<{ card: string; owner: string | null }>, truth: HandTruth, late: ReadonlySet<unknown>): NonNullable<HandResult['centreCards']> {
  const truthCards = truth.plays.filter((p) => p.foundationId !== undefined && !late.has(p)).flatMap((p) => p.cards.map((c) => ({ card: c.code as string, owner: c.owner as string })));
  const count = (cards: string[]) => cards.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
  const matched = (a: string[], b: string[]) => {
    const left = count(b);
    let n = 0;
    for (const key of a) if ((left.get(key) ?? 0) > 0) { left.set(key, left.get(key)! - 1); n += 1; }
    return n;
  };
  return {
    truth: truthCards.length,
    seen: seen.length,
    right: matched(seen.map((c) => `${c.card}/${c.owner}`), truthCards.map((c) => `${c.card}/${c.owner}`)),
    named: matched(seen.map((c) => c.card), truthCards.map((c) => c.card)),
  };
}

function compare(tableIndex: number, handIndex: number, view: TableView, truth: HandTruth, variant: string, callGraceMs: number, refereed?: Pick<TruthRefereedHand, 'centre' | 'violations'>): HandResult {
  const centre = refereed?.centre;
  const late = truth.plays.filter((p) => p.move.type === 'to-foundation' && truth.callMs !== null && p.landMs > truth.callMs + callGraceMs);
  const centreUnderRules = (player: string) => (truth.centre[player] ?? 0) - late.filter((p) => p.player === player).length;
  const centreExactUnderRules = view.players.every((p) => p.centreCards === centreUnderRules(p.id));
  const centreErrors = view.players.map((p) => Math.abs(p.centreCards - (truth.centre[p.id] ?? 0)));
  const nertsErrors = view.players.map((p) => Math.abs(p.nertsLeft - (truth.nertsLeft[p.id] ?? 0)));
  const perPlayer = view.players.map((p) => `${p.id} centre ${p.centreCards}/${truth.centre[p.id] ?? 0} nerts ${p.nertsLeft}/${truth.nertsLeft[p.id] ?? 0}`);
  const scoresTruth = truth.scores[variant] ?? {};
  const scoresSeen = entityScores(view);
  const exact = Object.keys(scoresTruth).length > 0 && Object.entries(scoresTruth).every(([entity, score]) => scoresSeen[entity] === score);
  let disputesRight = 0;
  const used = new Set<string>();
  for (const dispute of truth.disputes) {
    const match = view.disputes.find((d) => !used.has(d.id) && d.first.card === dispute.code && d.winner === (dispute.winner?.player ?? null));
    if (match) {
      used.add(match.id);
      disputesRight += 1;
    }
  }
  return {
    table: tableIndex, hand: handIndex, exact, centreExactUnderRules, playsAfterCall: late.length, centreErrors, nertsErrors, perPlayer,
    disputesTruth: truth.disputes.length, disputesRight, disputesSeen: view.disputes.length, scoresSeen, scoresTruth,
    ...(centre ? { centreCards: compareCentre(centre, truth, new Set(late)) } : {}),
    ...(refereed ? { alarms: refereed.violations.map((v) => `${v.code}${v.card ? ` ${v.card}` : ''} @ ${(v.timeMs / 1000).toFixed(1)} s`) } : {}),
  };
}

interface Bench {
  base: string;
  request<T>(method: string, path: string, token: string, body?: unknown): Promise<T>;
  /** The server's table (in this process), to record what its tracker is given. */
  liveTable(id: string): LiveTable | undefined;
}

/**
 * The score sort at the end of a hand: the camera's back count per player (view.backCheck) against
 * the truth; with `adopt`, the referee takes the camera's count wherever it differs from the
 * centre cards credited, lowering counts first (a lowered count frees cards to give to another).
 * Null when the camera counted no back at all.
 */
async function scoreSort(bench: Bench, tableId: string, refereeToken: string, view: TableView, truth: HandTruth, adopt: boolean): Promise<Omit<NonNullable<HandResult['backCount']>, 'callByReferee'> | null> {
  const check = view.backCheck;
  if (!check) return null;
  const trackerCountsExact = view.players.every((p) => p.centreCards === (truth.centre[p.id] ?? 0) && p.nertsLeft === (truth.nertsLeft[p.id] ?? 0));
  const seen = check.players.map((p) => p.backsSeen);
  const tracker = check.players.map((p) => p.centreCards);
  const errors = check.players.map((p) => Math.abs(p.backsSeen - (truth.centre[p.player] ?? 0)));
  if (adopt) {
    const changes = check.players.filter((p) => !p.agrees).sort((a, b) => a.backsSeen - a.centreCards - (b.backsSeen - b.centreCards));
    for (const p of changes) await bench.request('POST', `/api/tables/${tableId}/corrections`, refereeToken, { player: p.player, centreCards: p.backsSeen, reason: 'camera back count' });
  }
  return { seen, errors, tracker, adopted: adopt, trackerCountsExact };
}

/**
 * Plays every hand of one simulated table through the server's camera socket. With `prerender`,
 * `rendered()` is called once this table's frames are all rendered and resolves when every
 * table's are: tables start streaming together, none while the others still render.
 */
async function playTable(
  bench: Bench,
  index: number,
  source: SimTable,
  fps: number,
  log: (m: string) => void,
  maxFrames: number,
  prerender: boolean,
  rendered: () => Promise<void>,
  useBackCount: boolean,
  recording: RecordingWriter | null,
  cacheKey: string | null,
): Promise<{ results: HandResult[]; stats: PipelineStats; sent: number; wallMs: number }> {
  let sim = source;
  if (prerender) {
    const cached = cacheKey ? readPrerendered(cacheKey) : null;
    const frames: SimFrame[] = cached ?? [];
    if (!cached) for (let frame = await source.next(); frame && frames.length < maxFrames; frame = await source.next()) frames.push(frame);
    if (cacheKey && !cached) writePrerendered(cacheKey, frames);
    log(`table ${index}: ${frames.length} frames ${cached ? `read from .cache/prerender/${cacheKey}` : 'rendered ahead'}`);
    await rendered();
    let next = 0;
    sim = { ...source, next: async () => frames[next++] ?? null };
  }
  const created = await bench.request<CreatedTable>('POST', '/api/tables', '', {
    name: `bench ${index}`,
    seats: sim.players.map((p) => ({ playerId: p.id, name: p.id, deckId: p.deckId, ...(p.team ? { team: p.team } : {}) })),
    variant: sim.variant.name,
    source: 'camera',
  });
  const { table, tokens } = created;
  if (sim.camera) await bench.request('PUT', `/api/tables/${table.id}/calibration`, tokens.referee, simCalibration(sim.layout, sim.camera));
  // --record: every frame the tracker steps on, as the hand the bench is playing (it drains the
  // pipeline at each hand's end, so no frame crosses over).
  let handIndex = 0;
  // Where the frames' time went: each recogniser stage and wait in the pool, ms (logged at the end).
  const stageTimes = new Map<string, { totalMs: number; histogram: LatencyHistogram }>();
  bench.liveTable(table.id)?.trackerFrameListeners.add(({ observations }) => {
    for (const [stage, ms] of Object.entries(observations.timingsMs ?? {})) {
      if (!stageTimes.has(stage)) stageTimes.set(stage, { totalMs: 0, histogram: new LatencyHistogram() });
      const times = stageTimes.get(stage)!;
      times.totalMs += ms;
      times.histogram.add(ms);
    }
  });
  if (recording) bench.liveTable(table.id)?.trackerFrameListeners.add(({ timeMs, observations, wholeRead }) => {
    const { timingsMs: _timings, ...obs } = observations;
    recording.frame(handIndex, 0, timeMs, obs, wholeRead);
  });
  const socket = new WebSocket(`${bench.base.replace('http', 'ws')}/api/tables/${table.id}/camera?token=${tokens.camera}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { type: string; code?: string; message?: string };
    if (message.type === 'error') log(`table ${index}: server says ${message.code}: ${message.message}`);
  });
  const send = (frame: SimFrame) => {
    const header = Buffer.alloc(8);
    header.writeDoubleLE(frame.timeMs, 0);
    socket.send(Buffer.concat([header, frame.jpeg]));
  };
  const stats = async () => (await bench.request<{ view: TableView; stats: PipelineStats }>('GET', `/api/tables/${table.id}`, tokens.view)).stats;
  const drain = async () => {
    const start = Date.now();
    for (;;) {
      const s = await stats();
      if (s.framesProcessed + s.framesDropped + (s.framesFailed ?? 0) >= s.framesReceived) return;
      if (Date.now() - start > 30_000) return;
      await sleep(50);
    }
  };

  const results: HandResult[] = [];
  const showings = new BackShowings();
  /** Per hand: null once the sort began with the call seen, true when the referee had to call. */
  let callByReferee: boolean | null = false;
  let sent = 0;
  const wallStart = performance.now();
  let paceStart = performance.now();
  let pacedFrames = 0;
  for (;;) {
    if (sent >= maxFrames) {
      await drain();
      break;
    }
    const frame = await sim.next();
    if (!frame) break;
    const showing = showings.take(frame);
    if (showing) {
      // The players show their backs (each deck's stock is in view), then play on.
      const pausedAt = performance.now();
      send(frame);
      await drain();
      for (const [deckId, corners] of backViews(frame.truth)) {
        try {
          await bench.request('POST', `/api/tables/${table.id}/decks/${encodeURIComponent(deckId)}/enroll`, tokens.referee, { corners, replace: showing.replace });
        } catch (error) {
          log(`table ${index}: enrolling ${deckId} failed: ${(error as Error).message}`);
        }
      }
      paceStart += performance.now() - pausedAt;
    }
    if (frame.frameIndex === 0) {
      await bench.request('POST', `/api/tables/${table.id}/hands`, tokens.referee, {});
      callByReferee = false;
      handIndex = frame.handIndex;
    }
    if (callByReferee === false && frame.scene.cards.some((card) => card.zone.kind === 'sorted') && frame.handTruth.caller) {
      // The score sort has begun: a hand the camera did not see called is called by the referee
      // (the dashboard's call button), as the back count only runs after the call.
      const view = await bench.request<{ view: TableView }>('GET', `/api/tables/${table.id}`, tokens.view);
      if (view.view.phase === 'playing') {
        await bench.request('POST', `/api/tables/${table.id}/call`, tokens.referee, { player: frame.handTruth.caller });
        recording?.call(frame.handIndex, frame.timeMs, frame.handTruth.caller);
        callByReferee = true;
        log(`table ${index} hand ${frame.handIndex}: the camera missed the call; the referee calls it`);
      } else callByReferee = null;
    }
    send(frame);
    sent += 1;
    pacedFrames += 1;
    if (sent % 300 === 0) {
      const s = await stats();
      log(`table ${index}: ${sent} frames sent (hand ${frame.handIndex}, ${Math.round(frame.handTimeMs / 1000)} s of ${Math.round(frame.handTruth.endMs / 1000)} s); server fps ${s.fps}, p95 ${s.p95Ms} ms, processed ${s.framesProcessed}, dropped ${s.framesDropped}, failed ${s.framesFailed ?? 0}`);
    }
    const wait = paceStart + (pacedFrames * 1000) / fps - performance.now();
    if (wait > 0) await sleep(wait);
    if (frame.lastOfHand) {
      await drain();
      recording?.truth(frame.handIndex, frame.handTruth);
      const sorted = (await bench.request<{ view: TableView }>('GET', `/api/tables/${table.id}`, tokens.view)).view;
      const backCount = await scoreSort(bench, table.id, tokens.referee, sorted, frame.handTruth, useBackCount);
      const view = await bench.request<TableView>('POST', `/api/tables/${table.id}/hands/end`, tokens.referee, {});
      const result = compare(index, frame.handIndex, view, frame.handTruth, sim.variant.name, sim.variant.callGraceMs);
      if (backCount) result.backCount = { ...backCount, callByReferee: callByReferee === true };
      results.push(result);
      const s = await stats();
      log(`${describe(result)}; fps ${s.fps} p95 ${s.p95Ms} ms, dropped ${s.framesDropped}, failed ${s.framesFailed ?? 0}`);
      paceStart = performance.now();
      pacedFrames = 0;
    }
  }
  const final = await stats();
  socket.close();
  const stages = [...stageTimes].map(([stage, { totalMs, histogram }]) => `${stage} ${(totalMs / histogram.count).toFixed(1)}/${LatencyHistogram.quantile(0.5, histogram)}/${LatencyHistogram.quantile(0.95, histogram)}`);
  log(`table ${index}: stage ms (mean/p50/p95) over the frames the tracker stepped on: ${stages.join(', ')}`);
  return { results, stats: final, sent, wallMs: performance.now() - wallStart };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      players: { type: 'string' },
      hands: { type: 'string' },
      seed: { type: 'string' },
      art: { type: 'string' },
      camera: { type: 'string' },
      tables: { type: 'string' },
      fps: { type: 'string' },
      workers: { type: 'string' },
      width: { type: 'string' },
      height: { type: 'string' },
      observations: { type: 'string' },
      frames: { type: 'string' },
      prerender: { type: 'boolean' },
      'use-back-count': { type: 'boolean' },
      record: { type: 'string' },
      drop: { type: 'string' },
      misread: { type: 'string' },
      motion: { type: 'boolean' },
    },
    strict: true,
  });
  const players = positiveInt(values.players, 'players', 3);
  if (players < 2 || players > 6) usage('--players must be 2 to 6');
  const hands = positiveInt(values.hands, 'hands', 1);
  const seed = Number(values.seed ?? 1);
  if (!Number.isFinite(seed)) usage('--seed must be a number');
  const camera = values.camera ?? 'top';
  if (camera !== 'top' && camera !== 'oblique') usage('--camera must be top or oblique');
  if (values.record !== undefined && values.observations !== undefined) usage('--record records a full-pipeline run; it does not go with --observations');
  const tables = positiveInt(values.tables, 'tables', 1);
  const fps = positiveInt(values.fps, 'fps', tables > 1 ? 10 : 30);
  const workers = positiveInt(values.workers, 'workers', 1);
  const width = positiveInt(values.width, 'width', 1280);
  const height = positiveInt(values.height, 'height', 720);
  const maxFrames = values.frames === undefined ? Infinity : positiveInt(values.frames, 'frames', 1);
  const log = (message: string) => console.error(`[bench:referee] ${message}`);
  const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : 0);
  const accuracy = (results: HandResult[]) => {
    const centre = results.flatMap((r) => r.centreErrors);
    const nerts = results.flatMap((r) => r.nertsErrors);
    const disputesTruth = results.reduce((sum, r) => sum + r.disputesTruth, 0);
    const disputesRight = results.reduce((sum, r) => sum + r.disputesRight, 0);
    const disputesSeen = results.reduce((sum, r) => sum + r.disputesSeen, 0);
    const cards = results.flatMap((r) => (r.centreCards ? [r.centreCards] : []));
    const sorts = results.flatMap((r) => (r.backCount ? [r.backCount] : []));
    const alarms = results.flatMap((r) => r.alarms ?? []);
    const alarmCodes = alarms.reduce<Record<string, number>>((byCode, alarm) => ({ ...byCode, [alarm.split(' ')[0]]: (byCode[alarm.split(' ')[0]] ?? 0) + 1 }), {});
    const total = (key: keyof NonNullable<HandResult['centreCards']>) => cards.reduce((sum, c) => sum + c[key], 0);
    return {
      handsScored: results.length,
      handsExact: results.length ? Math.round((results.filter((r) => r.exact).length / results.length) * 1000) / 1000 : 0,
      // Centre counts against the truth recounted under the variant's call grace: equal to handsExact's
      // centre part now that the simulator stops plays at the call (kept as a consistency check).
      handsCentreExactUnderRules: results.length ? Math.round((results.filter((r) => r.centreExactUnderRules).length / results.length) * 1000) / 1000 : 0,
      truthPlaysAfterCall: results.reduce((sum, r) => sum + r.playsAfterCall, 0),
      centreErrorPerPlayer: { mean: mean(centre), max: centre.length ? Math.max(...centre) : 0 },
      nertsErrorPerPlayer: { mean: mean(nerts), max: nerts.length ? Math.max(...nerts) : 0 },
      disputesRuledRight: disputesTruth ? Math.round((disputesRight / disputesTruth) * 1000) / 1000 : null,
      disputes: { right: disputesRight, truth: disputesTruth, seen: disputesSeen },
      ...(cards.length ? { centreCards: { truth: total('truth'), seen: total('seen'), right: total('right'), named: total('named') } } : {}),
      // Violations raised on simulated hands, whose players never break a rule: all false alarms.
      ...(results.some((r) => r.alarms) ? { falseAlarms: { total: alarms.length, byCode: alarmCodes } } : {}),
      ...(sorts.length
        ? {
            // The score sort: the camera's count of each player's backs against the truth's centre cards.
            scoreSort: {
              hands: sorts.length,
              adopted: sorts.some((b) => b.adopted),
              countErrorPerPlayer: { mean: mean(sorts.flatMap((b) => b.errors)), max: Math.max(...sorts.flatMap((b) => b.errors)) },
              playersCountedExactly: `${sorts.flatMap((b) => b.errors).filter((e) => e === 0).length}/${sorts.flatMap((b) => b.errors).length}`,
              callsMadeByReferee: sorts.filter((b) => b.callByReferee).length,
              // Hands whose centre and Nerts counts the tracker alone had exact (before any adoption).
              handsTrackerCountsExact: Math.round((sorts.filter((b) => b.trackerCountsExact).length / sorts.length) * 1000) / 1000,
            },
          }
        : {}),
    };
  };

  if (values.observations !== undefined && values.observations !== 'truth') {
    // Recorded observations (npm run record:observations): tracker + rules on real recogniser output.
    const results: HandResult[] = [];
    const started = performance.now();
    const files = values.observations.split(',');
    for (const [t, file] of files.entries()) {
      const { meta, frames } = await openRecording(file).catch((error: Error) => usage(error.message));
      for (const hand of await refereeObservations(meta, frames)) {
        const result = compare(t, hand.handIndex, hand.view, hand.truth, meta.variant.name, meta.variant.callGraceMs, hand);
        results.push(result);
        log(`${file}: ${describe(result)}`);
      }
    }
    console.log(JSON.stringify({ bench: 'referee', observations: `recorded (tracker + rules on recorded recogniser output): ${files.join(', ')}`, ...accuracy(results), wallS: Math.round((performance.now() - started) / 100) / 10 }));
    return;
  }

  if (values.observations !== undefined) {
    const drop = Number(values.drop ?? 0);
    const misread = Number(values.misread ?? 0);
    if (!(drop >= 0 && drop < 1 && misread >= 0 && misread < 1)) usage('--drop and --misread are probabilities in [0, 1)');
    const results: HandResult[] = [];
    const started = performance.now();
    for (let t = 0; t < tables; t += 1) {
      const sim = await createSimTable({ players, seed: seed + t, fps, hands, render: false });
      for (const hand of await refereeFromTruth(sim, { drop, misread, motion: values.motion === true }, truthNoiseSeed(seed, t))) {
        const result = compare(t, hand.handIndex, hand.view, hand.truth, sim.variant.name, sim.variant.callGraceMs, hand);
        results.push(result);
        log(describe(result));
      }
    }
    console.log(JSON.stringify({ bench: 'referee', observations: 'truth (tracker + rules only, no recogniser)', drop, misread, motion: values.motion === true, players, hands, seed, tables, fps, ...accuracy(results), wallS: Math.round((performance.now() - started) / 100) / 10 }));
    return;
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'nerts-bench-'));
  const app = await buildApp({ dataDir, recognizer: 'real', workers, clientDist: null, rateLimitPerMinute: 1_000_000, maxCameraFps: 1000 });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const backend = await app.pool.backend.catch((error: Error) => `failed: ${error.message}`);
  log(`server on ${address}, recogniser ${backend}, ${tables} table(s) x ${hands} hand(s), ${players} players, seed ${seed}, camera ${camera}, ${fps} fps`);
  const bench: Bench = {
    base: address,
    liveTable: (id) => app.tables.get(id),
    async request<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
      const response = await fetch(`${address}${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
  try {
    const sims = await Promise.all(
      Array.from({ length: tables }, (_, i) => createSimTable({ players, seed: seed + i, fps, hands, camera, art: values.art, width, height })),
    );
    // Every table starts streaming once all are rendered (a table that started early shared the
    // CPU with the others' rendering, and its latency dominated the multi-table numbers).
    let renderedCount = 0;
    let allRendered: () => void = () => {};
    const everyTableRendered = new Promise<void>((resolve) => (allRendered = resolve));
    const rendered = () => {
      renderedCount += 1;
      if (renderedCount === sims.length) allRendered();
      return everyTableRendered;
    };
    const recording = values.record ? new RecordingWriter(values.record, { seed, players: sims[0].players, variant: sims[0].variant, calibration: sims[0].camera ? simCalibration(sims[0].layout, sims[0].camera) : null }) : null;
    const runs = await Promise.all(
      sims.map((sim, i) => {
        // The frames of this table drawn by this code (see prerender-cache.ts).
        const cacheKey = values.prerender ? prerenderKey({ players, seed: seed + i, fps, hands, camera, art: values.art ?? null, width, height, maxFrames: Number.isFinite(maxFrames) ? maxFrames : null }) : null;
        return playTable(bench, i, sim, fps, log, maxFrames, values.prerender === true, rendered, values['use-back-count'] === true, i === 0 ? recording : null, cacheKey);
      }),
    );
    if (recording) {
      await recording.close();
      log(`recorded what the tracker was given to ${values.record} (npm run bench:referee -- --observations ${values.record})`);
    }
    const results = runs.flatMap((run) => run.results);
    const processed = runs.reduce((sum, run) => sum + run.stats.framesProcessed, 0);
    const summary = {
      bench: 'referee',
      players,
      hands,
      seed,
      camera,
      tables,
      width,
      height,
      sendFps: fps,
      prerendered: values.prerender === true,
      ...(Number.isFinite(maxFrames) ? { framesPerTable: maxFrames } : {}),
      recognizer: backend,
      ...accuracy(results),
      // Frames recognised per second per table over the whole run (server side).
      fps: Math.round((runs.reduce((sum, run) => sum + run.stats.framesProcessed / (run.wallMs / 1000), 0) / runs.length) * 10) / 10,
      // Latency over the whole run (receipt → observations, every frame; the worst table), then
      // frames read during play, the score sort's frames and its whole reads apart.
      p50Ms: Math.max(...runs.map((run) => run.stats.session?.p50Ms ?? run.stats.p50Ms)),
      p95Ms: Math.max(...runs.map((run) => run.stats.session?.p95Ms ?? run.stats.p95Ms)),
      playP50Ms: Math.max(...runs.map((run) => run.stats.session?.playP50Ms ?? 0)),
      playP95Ms: Math.max(...runs.map((run) => run.stats.session?.playP95Ms ?? 0)),
      sortP50Ms: Math.max(...runs.map((run) => run.stats.session?.sortP50Ms ?? 0)),
      sortP95Ms: Math.max(...runs.map((run) => run.stats.session?.sortP95Ms ?? 0)),
      wholeReads: runs.reduce((sum, run) => sum + (run.stats.session?.wholeReads ?? 0), 0),
      wholeReadP95Ms: Math.max(...runs.map((run) => run.stats.session?.wholeReadP95Ms ?? 0)),
      framesSent: runs.reduce((sum, run) => sum + run.sent, 0),
      framesProcessed: processed,
      droppedFrames: runs.reduce((sum, run) => sum + run.stats.framesDropped, 0),
      failedFrames: runs.reduce((sum, run) => sum + (run.stats.framesFailed ?? 0), 0),
      wallS: Math.round(Math.max(...runs.map((run) => run.wallMs)) / 100) / 10,
    };
    log(`peer help per worker: ${JSON.stringify(await app.pool.helpStats())}`);
    console.log(JSON.stringify(summary));
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(`bench:referee failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
