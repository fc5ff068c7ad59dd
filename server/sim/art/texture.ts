/**
 * Card art rasterised once into RGB textures with a mip chain, so the per-frame renderer only
 * samples memory (no SVG work per frame). sharp does the decoding and SVG rendering.
 */
import sharp, { type Metadata } from 'sharp';

/** One mip level: packed RGB, row-major, `width * height * 3` bytes. */
export interface TextureLevel {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A card side in portrait orientation; level 0 is the full resolution, each next level half. */
export interface CardTexture {
  levels: TextureLevel[];
}

/** Texture size of level 0, pixels (63x88 mm card at about 3.8 px/mm). */
export const TEXTURE_WIDTH = 240;
export const TEXTURE_HEIGHT = 336;

function halve(level: TextureLevel): TextureLevel {
  const width = Math.max(1, level.width >> 1);
  const height = Math.max(1, level.height >> 1);
  const data = new Uint8Array(width * height * 3);
  const src = level.data;
  const sw = level.width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const a = ((2 * y) * sw + 2 * x) * 3;
      const b = a + sw * 3;
      const o = (y * width + x) * 3;
      data[o] = (src[a] + src[a + 3] + src[b] + src[b + 3] + 2) >> 2;
      data[o + 1] = (src[a + 1] + src[a + 4] + src[b + 1] + src[b + 4] + 2) >> 2;
      data[o + 2] = (src[a + 2] + src[a + 5] + src[b + 2] + src[b + 5] + 2) >> 2;
    }
  }
  return { width, height, data };
}

/** Builds the mip chain down to about 16 pixels wide from a level-0 RGB image. */
export function buildTexture(level0: TextureLevel): CardTexture {
  const levels = [level0];
  while (levels[levels.length - 1].width > 20) levels.push(halve(levels[levels.length - 1]));
  return { levels };
}

/**
 * Rasterises SVG or PNG card art: crops transparent margins, turns landscape art upright,
 * stretches to the card's aspect and flattens on white. Throws a clear error for unreadable art.
 */
export async function rasteriseCardArt(bytes: Buffer, label: string, width = TEXTURE_WIDTH, height = TEXTURE_HEIGHT): Promise<CardTexture> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch (error) {
    throw new Error(`cannot read card art ${label}: ${(error as Error).message}`);
  }
  const isSvg = meta.format === 'svg';
  const longSide = Math.max(meta.width ?? height, meta.height ?? height);
  // Render SVG at about twice the target size, so downscaling antialiases it well.
  const density = isSvg ? Math.min(2400, Math.max(18, (72 * 2 * height) / longSide)) : undefined;
  const { data, info } = await sharp(bytes, density ? { density } : {})
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Bounding box of the opaque part: many art files pad the card with transparent margins.
  // Scan inwards from each side and stop at the first opaque line (cheap for unpadded art).
  const w = info.width;
  const h = info.height;
  const opaque = (x: number, y: number) => data[(y * w + x) * 4 + 3] > 40;
  const rowHas = (y: number, x0: number, x1: number) => {
    for (let x = x0; x < x1; x++) if (opaque(x, y)) return true;
    return false;
  };
  const colHas = (x: number, y0: number, y1: number) => {
    for (let y = y0; y <= y1; y++) if (opaque(x, y)) return true;
    return false;
  };
  let minY = 0;
  while (minY < h && !rowHas(minY, 0, w)) minY++;
  if (minY === h) throw new Error(`card art ${label} is fully transparent`);
  let maxY = h - 1;
  while (maxY > minY && !rowHas(maxY, 0, w)) maxY--;
  let minX = 0;
  while (minX < w - 1 && !colHas(minX, minY, maxY)) minX++;
  let maxX = w - 1;
  while (maxX > minX && !colHas(maxX, minY, maxY)) maxX--;
  const boxW = maxX - minX + 1;
  const boxH = maxY - minY + 1;
  let pipeline = sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).extract({
    left: minX,
    top: minY,
    width: boxW,
    height: boxH,
  });
  if (boxW > boxH * 1.1) pipeline = sharp(await pipeline.rotate(90).png().toBuffer());
  const rgb = await pipeline
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer();
  return buildTexture({ width, height, data: new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.length) });
}
