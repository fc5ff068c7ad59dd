import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cropQuad } from '../../server/tables/crop';
import type { Quad } from '../../server/vision/types';

/** A 400x300 green cloth with a 63x88 white card turned 30 degrees about (200, 150), a red mark in its top-left corner. */
async function tiltedCard(): Promise<{ image: Uint8Array; corners: Quad }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#206030"/>
    <g transform="rotate(30 200 150)"><rect x="168.5" y="106" width="63" height="88" fill="#f8f8f8"/><rect x="170" y="108" width="12" height="12" fill="#d00000"/></g></svg>`;
  const image = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
  const turn = (x: number, y: number): [number, number] => {
    const a = Math.PI / 6;
    const dx = x - 200;
    const dy = y - 150;
    return [200 + dx * Math.cos(a) - dy * Math.sin(a), 150 + dx * Math.sin(a) + dy * Math.cos(a)];
  };
  return { image, corners: [turn(168.5, 106), turn(231.5, 106), turn(231.5, 194), turn(168.5, 194)] };
}

describe('cropQuad (the view an enrolment keeps)', () => {
  it('warps a card lying at an angle upright: card to the corners, no cloth, its own top-left corner top left', async () => {
    const { image, corners } = await tiltedCard();
    const png = await cropQuad(image, corners);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([63, 88]);
    const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    // Corners of the view are the card's white (a bounding box would show the green cloth there).
    for (const [x, y] of [[60, 2], [60, 85], [2, 85]]) expect(Math.min(...at(x, y))).toBeGreaterThan(200);
    // The red mark sits in the view's top-left corner.
    const [r, g, b] = at(6, 6);
    expect(r).toBeGreaterThan(180);
    expect(Math.max(g, b)).toBeLessThan(80);
  });

  it('scales a card held close down to a workable view, and refuses an outline outside the frame', async () => {
    const { image } = await tiltedCard();
    const big: Quad = [[-400, -500], [600, -500], [600, 900], [-400, 900]];
    const { width, height } = await sharp(await cropQuad(image, big)).metadata();
    expect(Math.max(width!, height!)).toBeLessThanOrEqual(400);
    await expect(cropQuad(image, [[500, 10], [560, 10], [560, 90], [500, 90]])).rejects.toThrow(/outside the frame/);
  });
});
