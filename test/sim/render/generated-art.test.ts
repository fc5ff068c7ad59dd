import { describe, expect, it } from 'vitest';
import { ALL_CARD_CODES } from '../../../server/game/cards';
import { createArtCatalogue } from '../../../server/sim/art/decks';
import { rasteriseCardArt } from '../../../server/sim/art/texture';

/** Mean absolute difference between two RGB images of the same size, 0..255. */
function meanDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

describe('generated deck styles', () => {
  for (const name of ['gen-0', 'gen-7', 'gen-31']) {
    it(`${name} renders all 52 faces, each distinct from the others`, async () => {
      const style = createArtCatalogue({ includeShared: false }).face(name);
      const images = await Promise.all(ALL_CARD_CODES.map(async (code) => (await rasteriseCardArt(await style.loadFace(code), code, 63, 88)).levels[0].data));
      let closest = Infinity;
      let pair = '';
      for (let i = 0; i < images.length; i++) {
        for (let j = i + 1; j < images.length; j++) {
          const d = meanDifference(images[i], images[j]);
          if (d < closest) {
            closest = d;
            pair = `${ALL_CARD_CODES[i]}~${ALL_CARD_CODES[j]}`;
          }
        }
      }
      // Same-rank different-suit faces differ in pips and index; ensure no two are near copies.
      expect(closest, `closest pair ${pair}`).toBeGreaterThan(1);
    });
  }

  it('styles differ from each other, and generated backs differ from each other', async () => {
    const catalogue = createArtCatalogue({ includeShared: false });
    const a = (await rasteriseCardArt(await catalogue.face('gen-1').loadFace('5H'), 'a', 63, 88)).levels[0].data;
    const b = (await rasteriseCardArt(await catalogue.face('gen-2').loadFace('5H'), 'b', 63, 88)).levels[0].data;
    expect(meanDifference(a, b)).toBeGreaterThan(2);
    const backs = await Promise.all([0, 1, 2, 3, 4, 5].map(async (n) => (await rasteriseCardArt(await catalogue.back(`gen-back-${n}`).load(), 'back', 63, 88)).levels[0].data));
    for (let i = 0; i < backs.length; i++) for (let j = i + 1; j < backs.length; j++) expect(meanDifference(backs[i], backs[j])).toBeGreaterThan(5);
  });

  it('loads every npm deck (all 52 faces and its backs)', async () => {
    const catalogue = createArtCatalogue({ includeShared: false });
    const npm = catalogue.faces.filter((f) => f.origin === 'npm');
    expect(npm.map((f) => f.name).sort()).toEqual(['npm-cardsjs', 'npm-deck-of-cards', 'npm-letele', 'npm-svg-cards']);
    for (const style of npm) {
      for (const code of ALL_CARD_CODES) {
        const texture = await rasteriseCardArt(await style.loadFace(code), `${style.name}/${code}`, 32, 45);
        expect(texture.levels[0].data.length).toBe(32 * 45 * 3);
      }
    }
    const npmBacks = catalogue.backs.filter((b) => b.origin === 'npm');
    expect(npmBacks.length).toBeGreaterThanOrEqual(5);
    for (const back of npmBacks) await rasteriseCardArt(await back.load(), back.name, 32, 45);
  });
});
