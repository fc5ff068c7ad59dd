/**
 * Decode stage: a FrameInput (JPEG/PNG/WebP bytes, or raw RGB) → an RGB image. Bad input is a
 * clear error, never a crash.
 */
import sharp from 'sharp';
import type { RgbImage } from './crop';
import type { FrameInput } from './types';

/** Largest frame side we accept, pixels (guards memory against hostile input). */
export const MAX_FRAME_SIDE = 8192;

/** Decodes a frame to RGB (3 bytes per pixel). Throws an Error with a readable message on bad input. */
export async function decodeFrame(frame: FrameInput): Promise<RgbImage> {
  if (frame.kind === 'rgb') {
    const { width, height, data } = frame;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0 || width > MAX_FRAME_SIDE || height > MAX_FRAME_SIDE)
      throw new Error(`bad frame size ${width}x${height}`);
    if (data.length !== width * height * 3) throw new Error(`rgb frame needs ${width * height * 3} bytes, got ${data.length}`);
    return { data, width, height };
  }
  if (frame.kind !== 'encoded' || !(frame.data instanceof Uint8Array) || frame.data.length === 0) throw new Error('empty or malformed frame');
  try {
    const decode = (toRgb: boolean) => {
      // respect EXIF orientation, as phone photos carry it
      let pipeline = sharp(frame.data, { limitInputPixels: MAX_FRAME_SIDE * MAX_FRAME_SIDE }).rotate().removeAlpha();
      // Converting colour space costs a few ms per frame: only for grey or CMYK input.
      if (toRgb) pipeline = pipeline.toColourspace('srgb');
      return pipeline.raw().toBuffer({ resolveWithObject: true });
    };
    let { data, info } = await decode(false);
    if (info.channels !== 3) ({ data, info } = await decode(true));
    if (info.channels !== 3) throw new Error(`expected 3 channels, got ${info.channels}`);
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (error) {
    throw new Error(`cannot decode frame: ${(error as Error).message}`);
  }
}
