import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { changeUnder, DEFAULT_BACKGROUND_TUNING, liesOnTable, TableBackground, THUMB_HEIGHT, THUMB_WIDTH, thumbOf, type Thumb } from '../../server/tables/table-background';
import type { Quad } from '../../server/vision/types';

/** A 1280x720 frame: a checked cloth (64 px checks), with white cards at `cards` (centres) and a dark hand at `hand`. */
async function frame(cards: Array<[number, number]> = [], hand?: [number, number]): Promise<Uint8Array> {
  const checks: string[] = [];
  for (let y = 0; y < 720; y += 64) for (let x = (y / 64) % 2 === 0 ? 0 : 64; x < 1280; x += 128) checks.push(`<rect x="${x}" y="${y}" width="64" height="64" fill="#5a78a0"/>`);
  const cardRects = cards.map(([x, y]) => `<rect x="${x - 18}" y="${y - 25}" width="36" height="50" fill="#f4f4f8"/>`);
  const handShape = hand ? `<ellipse cx="${hand[0]}" cy="${hand[1]}" rx="60" ry="40" fill="#b08060"/>` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="1280" height="720" fill="#c8d8ec"/>${checks.join('')}${cardRects.join('')}${handShape}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
}

/** A webcam card's corners about (x, y). */
function cardAt(x: number, y: number): Quad {
  return [[x - 18, y - 25], [x + 18, y - 25], [x + 18, y + 25], [x - 18, y + 25]];
}

async function thumb(image: Uint8Array): Promise<Thumb> {
  const t = await thumbOf(image);
  if (!t) throw new Error('no thumbnail');
  return t;
}

describe('the table behind the score sort', () => {
  it('thumbnails a frame, and gives none for bytes that are no image', async () => {
    const t = await thumb(await frame());
    expect(t).toMatchObject({ width: THUMB_WIDTH, height: THUMB_HEIGHT, frameWidth: 1280, frameHeight: 720 });
    expect(t.rgb).toHaveLength(THUMB_WIDTH * THUMB_HEIGHT * 3);
    expect(await thumbOf(new Uint8Array([1, 2, 3]))).toBeNull();
  });

  it('measures how much a card\'s middle changed between two pictures', async () => {
    const bare = await thumb(await frame());
    const hand = await thumb(await frame([], [300, 300]));
    expect(changeUnder(bare, await thumb(await frame()), cardAt(300, 300))!).toBeLessThan(3);
    expect(changeUnder(hand, bare, cardAt(300, 300))!).toBeGreaterThan(30);
    expect(changeUnder(hand, bare, cardAt(900, 500))!).toBeLessThan(3);
    // Off the picture: nothing to compare.
    expect(changeUnder(hand, bare, cardAt(5000, 300))).toBeNull();
  });

  it('tells a card dealt onto the cloth from the cloth itself, bare then or under a pile swept since', async () => {
    const background = new TableBackground();
    // Play: a foundation lies at (900, 150) from the second sample on; hands pass over.
    const plays: Array<[number, Array<[number, number]>, [number, number] | undefined]> = [[0, [], [200, 200]], [4000, [[900, 150]], undefined], [8000, [[900, 150]], [640, 360]]];
    for (const [t, cards, hand] of plays) {
      expect(background.wantsSample(t)).toBe(true);
      background.sampling(t);
      expect(background.wantsSample(t + 1000)).toBe(false);
      background.addSample(await thumb(await frame(cards, hand)));
    }
    expect(background.freeze()).toBe(true);
    // The sort: the foundation swept up, cards dealt at (500, 400) and (700, 400).
    const sort = await thumb(await frame([[500, 400], [700, 400]]));
    expect(background.unchanged(sort, cardAt(500, 400))).toBe(false);
    expect(background.unchanged(sort, cardAt(700, 400))).toBe(false);
    // "Backs" read on the bare cloth, where it was always bare and where the foundation lay.
    expect(background.unchanged(sort, cardAt(260, 560))).toBe(true);
    expect(background.unchanged(sort, cardAt(900, 150))).toBe(true);
    // Frozen: no more samples.
    expect(background.wantsSample(60_000)).toBe(false);
    background.addSample(sort);
    expect(background.unchanged(sort, cardAt(500, 400))).toBe(false);
    // Another frame size is not compared.
    const small = await thumb(new Uint8Array(await sharp(Buffer.from(await frame())).resize(640, 360).jpeg().toBuffer()));
    expect(background.unchanged(small, cardAt(260, 560))).toBe(false);
  });

  it('keeps samples spread over the whole hand: when full, every other one goes and sampling slows', async () => {
    const tuning = { ...DEFAULT_BACKGROUND_TUNING, maxSamples: 4, sampleEveryMs: 1000 };
    const background = new TableBackground(tuning);
    const bare = await thumb(await frame());
    let taken = 0;
    for (let t = 0; t <= 20_000; t += 500) {
      if (!background.wantsSample(t)) continue;
      background.sampling(t);
      background.addSample(bare);
      taken++;
    }
    // Each second from 0 to 4 s (the 5th thins them to 0, 2, 4 s), then 6 and 8 s (0, 4, 8), then
    // 12 and 16 s (0, 8, 16): still spread over the whole time.
    expect(taken).toBe(9);
    expect(background.size).toBe(3);
    // A clock that jumps back samples again.
    expect(background.wantsSample(100)).toBe(true);
  });

  it('judges nothing without samples', async () => {
    const background = new TableBackground();
    expect(background.freeze()).toBe(false);
    expect(background.unchanged(await thumb(await frame()), cardAt(260, 560))).toBe(false);
  });

  it('says a card lies on the table when its whole width does', () => {
    // A table seen a little in perspective: narrower at the top.
    const table: Array<[number, number]> = [[260, 20], [1020, 20], [1240, 700], [40, 700]];
    expect(liesOnTable(cardAt(640, 360), table)).toBe(true);
    expect(liesOnTable(cardAt(640, 50), table)).toBe(true);
    // Centre inside, but within half a card's width of an edge: at the bottom edge, the slanted side.
    expect(liesOnTable(cardAt(640, 690), table)).toBe(false);
    expect(liesOnTable(cardAt(150, 400), table)).toBe(false);
    expect(liesOnTable(cardAt(200, 400), table)).toBe(true);
    // Off the table altogether.
    expect(liesOnTable(cardAt(100, 100), table)).toBe(false);
  });
});

