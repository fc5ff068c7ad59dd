// Every rule id in RULES.md must name at least one test in test/game (and every id a test names must exist).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_CARD_CODES, colourOf, isCardCode, parseCard } from '../../server/game/cards';

const root = resolve(__dirname, '../..');

describe('rules coverage', () => {
  const rules = readFileSync(join(root, 'RULES.md'), 'utf8');
  const ruleIds = [...rules.matchAll(/^- \*\*([A-Z]+\d+v?)\*\*/gm)].map((m) => m[1]);
  const testText = readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => readFileSync(join(__dirname, f), 'utf8'))
    .join('\n');
  const named = new Set([...testText.matchAll(/\[([A-Z]+\d+v?)\]/g)].map((m) => m[1]));

  it('RULES.md lists rule ids', () => {
    expect(ruleIds.length).toBeGreaterThan(40);
    expect(new Set(ruleIds).size).toBe(ruleIds.length);
  });

  it('every rule in RULES.md has a test named by its id', () => {
    expect(ruleIds.filter((id) => !named.has(id))).toEqual([]);
  });

  it('every rule id a test names exists in RULES.md', () => {
    expect([...named].filter((id) => !ruleIds.includes(id) && id !== 'FUZZ')).toEqual([]);
  });
});

describe('cards', () => {
  it('[K1] 52 codes, rank + suit, ace low and king high', () => {
    expect(ALL_CARD_CODES).toHaveLength(52);
    expect(new Set(ALL_CARD_CODES).size).toBe(52);
    expect(parseCard('AS').value).toBe(1);
    expect(parseCard('KD').value).toBe(13);
    expect(parseCard('10H')).toEqual({ rank: '10', suit: 'H', value: 10 });
    expect(isCardCode('1H')).toBe(false);
    expect([colourOf('QH'), colourOf('QD'), colourOf('QS'), colourOf('QC')]).toEqual(['red', 'red', 'black', 'black']);
  });
});
