import { describe, expect, it } from 'vitest';
import { defaultDraft, draftToCreateTable, playerIdFrom } from '../../../client/src/lib/setupForm';

describe('setup form', () => {
  it('turns the default form into a valid body', () => {
    const { body, errors } = draftToCreateTable(defaultDraft(3));
    expect(errors).toEqual([]);
    expect(body?.seats.map((s) => s.playerId)).toEqual(['ann', 'bob', 'cy']);
    expect(body?.knobs).toBeUndefined();
  });
  it('makes unique, safe player ids', () => {
    const taken = new Set<string>();
    expect(playerIdFrom('Zoë Smith', taken)).toBe('zoe-smith');
    expect(playerIdFrom('Zoë Smith', taken)).toBe('zoe-smith-2');
    expect(playerIdFrom('!!!', taken)).toBe('player');
    for (const id of taken) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });
  it('nests scoring knobs as VariantKnobs expects', () => {
    const draft = { ...defaultDraft(2), nertsPenalty: '1', callBonus: '10', nertsPileSize: '10', target: '150' };
    const { body } = draftToCreateTable(draft);
    expect(body?.knobs).toEqual({ nertsPileSize: 10, scoring: { nertsPenalty: 1, callBonus: 10 } });
    expect(body?.target).toBe(150);
  });
  it('reports every problem readably', () => {
    const draft = defaultDraft(2);
    draft.name = ' ';
    draft.seats[0].name = '';
    draft.seats[1].team = 'solo';
    draft.target = 'lots';
    draft.nertsPenalty = '99';
    const { body, errors } = draftToCreateTable(draft);
    expect(body).toBeNull();
    expect(errors).toEqual([
      'Give the table a name',
      'Seat 1 needs a player name',
      'Team "solo" has only one player',
      'Target must be a whole number',
      'Penalty per Nerts card must be between 0 and 10',
    ]);
  });
});
