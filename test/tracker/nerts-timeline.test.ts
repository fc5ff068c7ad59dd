/**
 * The Nerts timeline (server/tables/nerts-timeline.ts): a recording's Nerts piles as the tracker
 * followed them, beside the truth's departures, and its command-line tool.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRecording } from '../../server/tables/recording';
import { nertsTimeline } from '../../server/tables/nerts-timeline';
import { recordCleanHand } from './observations';

describe('Nerts timeline of a recording', () => {
  it("lines up each player's departures in the truth with the tracker's tops and counts", async () => {
    const { file, truth } = await recordCleanHand('nerts-timeline-');
    const { meta, frames } = await openRecording(file);
    const [hand] = await nertsTimeline(meta, frames);
    expect(hand.players.map((p) => p.id)).toEqual(['p1', 'p2']);
    for (const player of hand.players) {
      const departures = truth.plays.filter((play) => play.tableau === player.id && 'from' in play.move && play.move.from.kind === 'nerts');
      expect(player.rows.filter((row) => row.kind === 'truth')).toHaveLength(departures.length);
      expect(player.truthLeft).toBe(truth.nertsLeft[player.id]);
      // Clean observations: the tracker's count is the truth's, and every departure shows as a new top by name.
      expect(player.trackerLeft).toBe(player.truthLeft);
      expect(player.rows.filter((row) => row.kind === 'name').length).toBeGreaterThanOrEqual(departures.length);
      const times = player.rows.map((row) => row.timeMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    // The command prints it, and refuses a file that is no recording with a clear message.
    const printed = execFileSync('npx', ['tsx', 'server/cli/nerts-timeline.ts', file, '--player', 'p1'], { encoding: 'utf8' });
    expect(printed).toMatch(/^hand 0 p1: \d+ left counted, \d+ true/);
    expect(printed).toMatch(/truth .* picked up/);
    const bad = join(mkdtempSync(join(tmpdir(), 'nerts-timeline-')), 'bad.jsonl');
    writeFileSync(bad, 'not json\n');
    expect(() => execFileSync('npx', ['tsx', 'server/cli/nerts-timeline.ts', bad], { encoding: 'utf8', stdio: 'pipe' })).toThrow(/not a nerts-observations\/1 recording/);
  }, 60_000);
});
