/**
 * Frame validation before any decoding: the image format from its magic bytes and its size
 * from its header, so oversized images (decompression bombs) are refused cheaply.
 * Pure functions over bytes; no I/O.
 */

/** Image formats a camera may send. */
export type FrameFormat = 'jpeg' | 'png' | 'webp';

/** What the header says about a frame: format and size in pixels. */
export interface FrameHeader {
  format: FrameFormat;
  width: number;
  height: number;
}

/** Why a frame was refused; `code` is the API error code. */
export class FrameError extends Error {
  constructor(
    readonly code: 'frame/unsupported-format' | 'frame/malformed' | 'frame/too-many-pixels' | 'frame/too-large' | 'frame/empty',
    message: string,
    readonly statusCode: 400 | 413 | 415 = code === 'frame/unsupported-format' ? 415 : code === 'frame/malformed' || code === 'frame/empty' ? 400 : 413,
  ) {
    super(message);
  }
}

/** Sniffs the format from the first bytes; null when it is none of JPEG, PNG, WebP. */
export function sniffFormat(bytes: Uint8Array): FrameFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  return null;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function readU16BE(b: Uint8Array, at: number): number {
  return (b[at] << 8) | b[at + 1];
}
function readU32BE(b: Uint8Array, at: number): number {
  return ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];
}
function readU24LE(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
}

/** Reads format and size (pixels) from the header; throws FrameError when unreadable. */
export function readFrameHeader(bytes: Uint8Array): FrameHeader {
  if (bytes.length === 0) throw new FrameError('frame/empty', 'empty frame');
  const format = sniffFormat(bytes);
  if (!format) throw new FrameError('frame/unsupported-format', 'frame is not JPEG, PNG or WebP');
  const size = format === 'jpeg' ? jpegSize(bytes) : format === 'png' ? pngSize(bytes) : webpSize(bytes);
  if (!size || size.width <= 0 || size.height <= 0) throw new FrameError('frame/malformed', `cannot read the ${format} header`);
  return { format, ...size };
}

function pngSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { width: readU32BE(b, 16), height: readU32BE(b, 20) };
}

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = readU16BE(b, at + 2);
    if (length < 2) return null;
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > b.length) return null;
      return { height: readU16BE(b, at + 5), width: readU16BE(b, at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(b: Uint8Array): { width: number; height: number } | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') return { width: (b[26] | (b[27] << 8)) & 0x3fff, height: (b[28] | (b[29] << 8)) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: readU24LE(b, 24) + 1, height: readU24LE(b, 27) + 1 };
  return null;
}

/** Limits a frame must respect. */
export interface FrameLimits {
  /** Bytes. */
  maxBytes: number;
  /** width × height, pixels. */
  maxPixels: number;
}

/** Default limits: 8 MiB and 4096×4096 pixels. */
export const DEFAULT_FRAME_LIMITS: FrameLimits = { maxBytes: 8 * 1024 * 1024, maxPixels: 4096 * 4096 };

/** Validates a frame against the limits and returns its header; throws FrameError. */
export function validateFrame(bytes: Uint8Array, limits: FrameLimits = DEFAULT_FRAME_LIMITS): FrameHeader {
  if (bytes.length > limits.maxBytes) throw new FrameError('frame/too-large', `frame is ${bytes.length} bytes, limit ${limits.maxBytes}`);
  const header = readFrameHeader(bytes);
  if (header.width * header.height > limits.maxPixels) {
    throw new FrameError('frame/too-many-pixels', `frame is ${header.width}x${header.height}, limit ${limits.maxPixels} pixels`);
  }
  return header;
}

/**
 * Splits a camera-socket message into capture time and image bytes: either raw image bytes
 * (time = `receivedAtMs`) or an 8-byte little-endian float64 time (ms) then the image.
 */
export function splitFrameMessage(message: Uint8Array, receivedAtMs: number): { captureTimeMs: number; image: Uint8Array } {
  if (sniffFormat(message) || message.length < 8) return { captureTimeMs: receivedAtMs, image: message };
  const view = new DataView(message.buffer, message.byteOffset, 8);
  const time = view.getFloat64(0, true);
  return { captureTimeMs: Number.isFinite(time) ? time : receivedAtMs, image: message.subarray(8) };
}
