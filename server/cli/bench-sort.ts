/**
 * npm run bench:sort -- [--tables 3:1:0,3:2:0,...] [--locator DIR]
 *
 * The score sort's whole read, alone: for each simulated hand (players:seed:hand), the last frame
 * of its score sort is read whole by the server's recogniser (calibrated, each deck's back
 * enrolled from the hand's first frame, as a live table enrols it) and every dealt back is looked
 * for among the backs reported for its deck (a centre within 15 px, sameSpot). Prints per hand and deck the
 * backs found of those dealt, those named as another deck, and the backs reported for the deck
 * in all (the rest lie elsewhere: players' own piles, false backs on the cloth, which the live
 * count's filters drop), then a final JSON line. One frame per hand, so it is deterministic and
 * about ten seconds a hand; the live count (bench:referee --use-back-count) votes over many
 * frames. `--locator DIR` tries another learned-locator model.
 */
import { parseArgs } from 'node:util';
import { configFromEnv, liveRecognizerConfig } from '../plugins/config';
import { lastSortFrame, sameSpot } from '../tables/sim-sort-frame';
import { createRecognizer } from '../vision/index';

/** The hands read by default: the benchmark tables' sorts (seed 2 is the pale blue gingham). */
const DEFAULT_TABLES = '3:1:0,3:1:1,3:2:0,3:2:1,3:3:0,3:3:1,4:1:0,5:1:0,6:1:0,6:2:0';

function usage(message: string): never {
  console.error(`bench:sort: ${message}\nusage: npm run bench:sort -- [--tables P:SEED:HAND,...] [--locator DIR]`);
  process.exit(2);
}

/** `players:seed:hand` triples from a comma-separated list. */
function parseTables(list: string): Array<{ players: number; seed: number; hand: number }> {
  return list.split(',').map((item) => {
    const [players, seed, hand] = item.split(':').map(Number);
    if (![players, seed, hand].every(Number.isInteger) || players < 2 || players > 6 || seed < 0 || hand < 0) usage(`bad table "${item}" (players 2-6, seed, hand index)`);
    return { players, seed, hand };
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { tables: { type: 'string' }, locator: { type: 'string' } }, strict: true });
  const tables = parseTables(values.tables ?? DEFAULT_TABLES);
  const totals = { hands: 0, dealt: 0, found: 0, namedAsAnother: 0, reportedElsewhere: 0, wholeReadMs: 0 };
  for (const { players, seed, hand } of tables) {
    const { calibration, views, frame } = await lastSortFrame(players, seed, hand).catch((error: Error) => usage(error.message));
    const recognizer = await createRecognizer({ ...liveRecognizerConfig(configFromEnv()), ...(values.locator ? { locatorModelDir: values.locator } : {}), log: () => {} });
    try {
      recognizer.setCalibration(calibration);
      for (const [deck, view] of views) await recognizer.enrollBack(deck, [{ kind: 'encoded', data: view }]);
      const started = performance.now();
      const { cards } = await recognizer.recognize({ kind: 'encoded', data: frame.jpeg }, frame.timeMs, { everyCard: true, scoreSort: true });
      const ms = performance.now() - started;
      const backs = cards.filter((card) => card.kind === 'back');
      const sorted = frame.truth.filter((t) => t.zone.kind === 'sorted');
      const decks = [...new Set(sorted.map((t) => t.deckId))].sort();
      const rows = decks.map((deck) => {
        const dealt = sorted.filter((t) => t.deckId === deck);
        const found = dealt.filter((t) => backs.some((b) => b.backId === deck && sameSpot(b.corners, t.corners))).length;
        const namedAsAnother = dealt.filter((t) => backs.some((b) => b.backId !== deck && sameSpot(b.corners, t.corners))).length;
        const reported = backs.filter((b) => b.backId === deck).length;
        totals.dealt += dealt.length;
        totals.found += found;
        totals.namedAsAnother += namedAsAnother;
        totals.reportedElsewhere += reported - found;
        return `${deck} ${found}/${dealt.length}${namedAsAnother ? ` (${namedAsAnother} as another)` : ''} reported ${reported}`;
      });
      totals.hands += 1;
      totals.wholeReadMs += ms;
      console.error(`[bench:sort] ${players}p seed ${seed} hand ${hand}: ${rows.join(', ')}; ${ms.toFixed(0)} ms`);
    } finally {
      recognizer.dispose();
    }
  }
  const { wholeReadMs, ...counts } = totals;
  console.log(JSON.stringify({ bench: 'sort', ...counts, recall: Number((totals.found / Math.max(1, totals.dealt)).toFixed(4)), msPerWholeRead: Math.round(wholeReadMs / Math.max(1, totals.hands)) }));
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
