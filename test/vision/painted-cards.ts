/** Test images of cards painted on cloth, for the localiser and probe tests. */

/** A card to paint: centre, short side w, long side h (pixels), turned by `angle` (radians). */
export interface PaintedCard {
  cx: number;
  cy: number;
  w: number;
  h: number;
  angle: number;
}

/**
 * RGB pixels of a dark brown cloth with `cards` painted on it in order (later ones on top); each
 * card pixel gets `face(u, v, card)`, where (u, v) is the pixel in the card's own frame from its
 * centre (u across, v along).
 */
export function paintCards(width: number, height: number, cards: PaintedCard[], face: (u: number, v: number, card: PaintedCard) => [number, number, number]): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set([70, 45, 30], i * 3);
  for (const c of cards) {
    const cos = Math.cos(c.angle);
    const sin = Math.sin(c.angle);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const u = (x - c.cx) * cos + (y - c.cy) * sin;
        const v = -(x - c.cx) * sin + (y - c.cy) * cos;
        if (Math.abs(u) > c.w / 2 || Math.abs(v) > c.h / 2) continue;
        data.set(face(u, v, c), (y * width + x) * 3);
      }
  }
  return data;
}
