import { describe, expect, it } from 'vitest';
import { scoreHand } from '../../server/game/scoring';
import { resolveVariant } from '../../server/game/variants';

const players = ['ann', 'bob', 'cy'];
const tally = { centre: { ann: 17, bob: 9, cy: 12 }, nertsLeft: { ann: 0, bob: 4, cy: 7 }, caller: 'ann' };
const rules = (preset: Parameters<typeof resolveVariant>[0]) => resolveVariant(preset).scoring;

describe('hand scoring', () => {
  it('[P1] a point per own card in the centre', () => {
    const s = scoreHand(rules('nertz'), players, { centre: { ann: 3, bob: 0, cy: 1 }, nertsLeft: { ann: 0, bob: 0, cy: 0 }, caller: null });
    expect(s.scores).toEqual({ ann: 3, bob: 0, cy: 1 });
  });

  it('[P2] snerts: everyone but the caller loses one point per Nerts card left', () => {
    // The caller's pile is normally empty; give ann one card to show the exemption.
    const s = scoreHand(rules('snerts'), players, { ...tally, nertsLeft: { ann: 1, bob: 4, cy: 7 } });
    expect(s.scores).toEqual({ ann: 17, bob: 5, cy: 5 });
  });

  it('[P3] with no call (everyone stuck), everyone takes the penalty', () => {
    const s = scoreHand(rules('snerts'), players, { ...tally, nertsLeft: { ann: 1, bob: 4, cy: 7 }, caller: null });
    expect(s.scores).toEqual({ ann: 16, bob: 5, cy: 5 });
    expect(s.callerEntity).toBeNull();
  });

  it('[P4] nertz: +1 / −2, no call bonus by default; +10 when the knob is on', () => {
    expect(scoreHand(rules('nertz'), players, tally).scores).toEqual({ ann: 17, bob: 1, cy: -2 });
    expect(scoreHand(rules({ preset: 'nertz', callBonus: 10 }), players, tally).scores).toEqual({ ann: 27, bob: 1, cy: -2 });
    const nertz = rules('nertz');
    expect([nertz.target, nertz.handCap, nertz.callBonus]).toEqual([100, 20, 0]);
  });

  it('[P5] house-150: +1 / −2 and +10 for the caller, first to 150', () => {
    expect(scoreHand(rules('house-150'), players, tally).scores).toEqual({ ann: 27, bob: 1, cy: -2 });
    expect(rules('house-150').target).toBe(150);
  });

  it('[P6] gnerts and nuts: less double the Nerts cards left, game to 100', () => {
    for (const preset of ['gnerts', 'nuts'] as const) {
      expect(scoreHand(rules(preset), players, tally).scores).toEqual({ ann: 17, bob: 1, cy: -2 });
      expect(rules(preset).target).toBe(100);
    }
    expect(rules('nuts').winRule).toBe('highest-past-target');
  });

  it('[P7] partners pool centre cards and penalties into one team score; the bonus goes to the team', () => {
    const four = ['ann', 'bob', 'cy', 'dee'];
    const s = scoreHand(rules('house-150'), four, { centre: { ann: 10, bob: 6, cy: 8, dee: 2 }, nertsLeft: { ann: 0, bob: 3, cy: 5, dee: 1 }, caller: 'ann' }, { red: ['ann', 'bob'], blue: ['cy', 'dee'] });
    expect(s.scores).toEqual({ red: 16 - 6 + 10, blue: 10 - 12 });
    expect(s.lines.red).toEqual({ centre: 16, nertsLeft: 3, penalty: 6, bonus: 10, total: 20 });
    expect(s.callerEntity).toBe('red');
  });

  it('[P8] free knobs: penalty, centre value, bonus, exemption', () => {
    const custom = rules({ preset: 'nertz', nertsPenalty: 3, perCentreCard: 2, callBonus: 5, callerExemptFromPenalty: true });
    expect(scoreHand(custom, ['ann', 'bob'], { centre: { ann: 4, bob: 4 }, nertsLeft: { ann: 1, bob: 2 }, caller: 'ann' }).scores).toEqual({ ann: 13, bob: 2 });
  });
});
