/**
 * npm run card-trace -- --players P --seed S --hand K --card C --at SECONDS [--before 1.5] [--after 3]
 *   [--drop 0.1] [--misread 0.03] [--motion] [--piles]
 *
 * What the tracker made of one card, frame by frame, on the simulator's ground truth exactly as
 * one `bench:tracker` run sees it (same table, noise and noise seed as `bench:referee
 * --observations truth`; `npm run owners -- --sim` lists the cards worth tracing). Around hand
 * time SECONDS it prints, per frame: where every deck's copy of the card truly is, the sightings
 * of it, its tracks, the race watches on it, and the tracker's events about it (with `--piles`,
 * every centre pile's top too: for a card that never reached the pile it landed on). For finding
 * why a play was credited to the wrong player or a race was missed.
 */
import { parseArgs } from 'node:util';
import { isCardCode, type CardCode } from '../game/cards';
import { createSimTable } from '../sim/live';
import { cameraFrame, presetCamera, projectPoint } from '../sim/render/camera';
import { quadCentre, type Point } from '../geometry';
import { trackerConfigFor, truthFrames, truthNoiseSeed } from '../tables/truth-referee';
import { flushPending, initialTrackerState, step, type RaceWatch, type TrackerState } from '../tracker/tracker';
import type { TableScene } from '../sim/scene';
import { finiteNumber } from './args';

const USAGE = 'usage: npm run card-trace -- --players P --seed S --hand K --card C --at SECONDS [--before 1.5] [--after 3] [--drop 0.1] [--misread 0.03] [--motion] [--piles]';

function usage(message: string): never {
  console.error(`card-trace: ${message}\n${USAGE}`);
  process.exit(2);
}

const number = (value: string | undefined, name: string, fallback?: number) => finiteNumber(value, name, fallback, usage);

const px = (x: number, y: number) => `(${Math.round(x)},${Math.round(y)})`;

function describeRace(race: RaceWatch, nowMs: number, startMs: number): string {
  const rel = (ms: number) => `${Math.round(ms - race.landMs)}`;
  const parts = [`landed ${((race.landMs - startMs) / 1000).toFixed(2)}`];
  if (Object.keys(race.away).length) parts.push(`away ${Object.entries(race.away).map(([p, ms]) => `${p}@${rel(ms)}${race.awayFlying?.[p] ? ' flying' : ''}`).join(' ')}`);
  if (race.backFrames && Object.keys(race.backFrames).length) parts.push(`back ${JSON.stringify(race.backFrames)}`);
  if (race.reachers) parts.push(`reachers ${Object.entries(race.reachers).map(([p, r]) => `${p}:${r.frames}@${rel(r.firstMs)}`).join(' ')}`);
  if (race.ownerHomeFrames) parts.push(`owner home ${race.ownerHomeFrames}`);
  if (race.secondSeenMs !== null) parts.push(`second seen @${rel(race.secondSeenMs)}`);
  if (race.landers && Object.keys(race.landers).length) parts.push(`landers ${Object.values(race.landers).map((l) => `${l.origin}@${rel(l.landedMs)}`).join(' ')}`);
  if (race.losers?.length) parts.push(`losers ${race.losers.join(',')}`);
  if (race.coveredMs !== undefined) parts.push(`covered @${rel(race.coveredMs)}`);
  parts.push(`open ${Math.round(race.untilMs - nowMs)} ms more`);
  return parts.join('; ');
}

/** Where each deck's copy of `code` is in the scene, in image pixels, and whether a hand holds it. */
function truthCopies(scene: TableScene, code: CardCode, project: (xMm: number, yMm: number, zMm: number) => Point | null): string {
  return scene.cards
    .filter((card) => card.code === code)
    .map((card) => {
      const at = project(card.xMm, card.yMm, card.zMm);
      const zone = card.zone;
      const where = zone.kind === 'centre' ? `centre ${zone.foundationId}` : 'seat' in zone && zone.seat !== null ? `${zone.kind} seat${zone.seat}` : zone.kind;
      return `${card.owner} ${where}${card.faceUp ? '' : ' (down)'} ${at ? px(...at) : '?'}`;
    })
    .join(' | ');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      players: { type: 'string' },
      seed: { type: 'string' },
      hand: { type: 'string' },
      card: { type: 'string' },
      at: { type: 'string' },
      before: { type: 'string' },
      after: { type: 'string' },
      hands: { type: 'string' },
      drop: { type: 'string' },
      misread: { type: 'string' },
      motion: { type: 'boolean' },
      piles: { type: 'boolean' },
    },
    strict: true,
  });
  const players = number(values.players, 'players', 3);
  const seed = number(values.seed, 'seed', 1);
  const hand = number(values.hand, 'hand', 0);
  const code = (values.card ?? '').toUpperCase();
  if (!isCardCode(code)) usage('--card must be a card code such as 7S or 10H');
  const atMs = number(values.at, 'at') * 1000;
  const fromMs = atMs - number(values.before, 'before', 1.5) * 1000;
  const toMs = atMs + number(values.after, 'after', 3) * 1000;
  const noise = { drop: number(values.drop, 'drop', 0.1), misread: number(values.misread, 'misread', 0.03), motion: values.motion === true };
  // As bench:referee --observations truth: as many hands as the sweep plays (noise draws depend on them all), table 0's noise seed.
  const sim = await createSimTable({ players, seed, fps: 30, hands: Math.max(hand + 1, number(values.hands, 'hands', 3)), render: false }).catch((error: Error) => usage(error.message));
  const camera = sim.camera ?? presetCamera('top', 1280, 720, sim.layout.table);
  const frameOfCamera = cameraFrame(camera);
  const project = (x: number, y: number, z: number) => projectPoint(frameOfCamera, x, y, z);
  const config = trackerConfigFor(sim);
  let tracker: TrackerState = initialTrackerState(config);
  let startMs: number | null = null;
  for await (const frame of truthFrames(sim, noise, truthNoiseSeed(seed), camera)) {
    if (frame.handIndex < hand) continue;
    if (frame.handIndex > hand) break;
    const start = (startMs ??= frame.timeMs);
    const { observations } = frame;
    const lastOfHand = frame.handTruth !== undefined;
    const result = step(tracker, { ...observations, timestampMs: frame.timeMs }, config);
    tracker = result.state;
    const t = frame.timeMs - start;
    const events = [...result.events];
    if (lastOfHand) events.push(...flushPending(tracker, config).events);
    if (t < fromMs || t > toMs) {
      if (lastOfHand) break;
      continue;
    }
    const rel = (ms: number) => ((ms - start) / 1000).toFixed(2);
    const lines: string[] = [];
    lines.push(`truth: ${truthCopies(frame.scene, code, project)}`);
    const hands = frame.scene.hands.map((h) => {
      const at = project(h.xMm, h.yMm, 0);
      return `seat${h.seat} ${at ? px(...at) : '?'}`;
    });
    if (hands.length) lines.push(`hands: ${hands.join(' ')}`);
    const seen = observations.cards.filter((card) => card.kind === 'face' && card.code === code);
    lines.push(`seen: ${seen.map((card) => `${card.zone ?? '-'} ${px(...quadCentre(card.corners))} ${card.confidence.toFixed(2)}`).join(' | ') || '-'}`);
    for (const track of (tracker.tracks ?? []).filter((tr) => tr.code === code)) {
      const moving = track.movingMs === track.lastMs ? 'moving' : `still ${track.stillFrames}`;
      const rest = track.rest ? ` rest ${px(track.rest.x, track.rest.y)}@${rel(track.rest.landedMs)}` : '';
      const came = track.arrival ? ` came ${px(track.arrival.x, track.arrival.y)}@${rel(track.arrival.atMs)}` : '';
      lines.push(`track #${track.id} from ${track.origin ?? 'centre'} ${px(track.x, track.y)} ${moving} last ${rel(track.lastMs)} born ${track.bornMs === undefined ? '?' : rel(track.bornMs)}${rest}${came}`);
    }
    const label = (card: { code: CardCode; player: string }) => `${card.code}:${card.player || '?'}`;
    for (const pile of tracker.piles) {
      const mine = pile.cards.findIndex((card) => card.code === code);
      const watches = [...(pile.earlierRaces ?? []), ...(pile.race ? [pile.race] : [])].filter((race) => race.code === code);
      if (mine < 0 && watches.length === 0) {
        if (values.piles) lines.push(`pile ${pile.id} ${px(...pile.center)}: … ${pile.cards.slice(-2).map(label).join(' ')}${pile.completed ? ' (completed)' : ''}${pile.missingSinceMs != null ? ` missing since ${rel(pile.missingSinceMs)}` : ''}${pile.kingLander ? ` king lander ${pile.kingLander.origin}@${rel(pile.kingLander.landedMs)}` : ''}`);
        continue;
      }
      const cards = pile.cards.slice(Math.max(0, mine - 1)).map(label);
      lines.push(`pile ${pile.id} ${px(...pile.center)}: … ${cards.join(' ')}`);
      for (const race of watches) lines.push(`  race ${describeRace(race, frame.timeMs, start)}`);
    }
    for (const play of tracker.pending.filter((p) => p.code === code)) lines.push(`pending on ${play.foundationId}: landed ${rel(play.landMs)}, candidates ${play.candidates.map((c) => `${c.playerId}@${rel(c.seenMs)}`).join(' ') || '-'}, track owner ${play.trackOwner ?? '-'}`);
    for (const { event, timeMs } of events) if ('card' in event && event.card === code) lines.push(`EVENT ${JSON.stringify(event)} at ${rel(timeMs)}`);
    console.log(`${(t / 1000).toFixed(3)}\n  ${lines.join('\n  ')}`);
    if (lastOfHand) break;
  }
}

main().catch((error: Error) => {
  console.error(`card-trace: ${error.message}`);
  process.exit(1);
});
