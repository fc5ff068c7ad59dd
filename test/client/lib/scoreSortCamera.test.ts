import { describe, expect, it } from 'vitest';
import type { TableView } from '../../../server/protocol';
import type { CardCode } from '../../../server/game/cards';
import { CAMERA_COUNT_REASON, cameraCorrection, cameraCorrections, cameraCountOf, cameraMismatches, unsureCentreOf } from '../../../client/src/lib/scoreSort';

const backCheck: NonNullable<TableView['backCheck']> = {
  frames: 12,
  players: [
    { player: 'ann', deckId: 'deck-ann', backsSeen: 9, centreCards: 9, agrees: true },
    { player: 'bob', deckId: 'deck-bob', backsSeen: 5, centreCards: 6, agrees: false },
  ],
};
const view = { backCheck } as TableView;

describe('score sort: the camera’s back count', () => {
  it('reads each player’s count and agreement, or null before the camera counted', () => {
    expect(cameraCountOf(view, 'ann')).toEqual({ backsSeen: 9, agrees: true });
    expect(cameraCountOf(view, 'bob')).toEqual({ backsSeen: 5, agrees: false });
    expect(cameraCountOf(view, 'cyrus')).toBeNull();
    expect(cameraCountOf({} as TableView, 'ann')).toBeNull();
  });
  it('counts the mismatches', () => {
    expect(cameraMismatches(view)).toBe(1);
    expect(cameraMismatches({} as TableView)).toBe(0);
  });
  it('builds the correction that adopts the camera count, with its reason for the log', () => {
    expect(cameraCorrection('bob', { backsSeen: 5, agrees: false })).toEqual({ player: 'bob', centreCards: 5, reason: CAMERA_COUNT_REASON });
    expect(CAMERA_COUNT_REASON).toBe('camera back count');
  });
  it('adopts every differing count, lowered counts first (the cards they free go to the raised ones)', () => {
    const three = {
      backCheck: {
        frames: 5,
        players: [
          { player: 'ann', deckId: 'deck-ann', backsSeen: 11, centreCards: 9, agrees: false },
          { player: 'bob', deckId: 'deck-bob', backsSeen: 4, centreCards: 6, agrees: false },
          { player: 'cyrus', deckId: 'deck-cyrus', backsSeen: 3, centreCards: 3, agrees: true },
          { player: 'dee', deckId: 'deck-dee', backsSeen: 2, centreCards: 3, agrees: false },
        ],
      },
    } as TableView;
    expect(cameraCorrections(three).map((c) => `${c.player}:${c.centreCards}`)).toEqual(['bob:4', 'dee:2', 'ann:11']);
    expect(cameraCorrections(view).map((c) => c.player)).toEqual(['bob']);
    expect(cameraCorrections({} as TableView)).toEqual([]);
  });
  it('lists the cards whose player the camera guessed, per player or per team', () => {
    const player = (id: string, unsureCards?: CardCode[], team?: string) => ({ id, name: id, seat: 0, deckId: id, nertsLeft: 0, centreCards: 5, ...(team ? { team } : {}), ...(unsureCards ? { unsureCards } : {}) });
    const teams = { players: [player('ann', ['2D', '7H'], 'red'), player('bob', ['QS'], 'red'), player('cyrus'), player('dee', ['AC'])] } as TableView;
    expect(unsureCentreOf(teams, 'red')).toEqual(['2D', '7H', 'QS']);
    expect(unsureCentreOf(teams, 'ann')).toEqual(['2D', '7H']);
    expect(unsureCentreOf(teams, 'cyrus')).toEqual([]);
    expect(unsureCentreOf(teams, 'dee')).toEqual(['AC']);
  });
});
