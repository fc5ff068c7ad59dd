/**
 * The fake recogniser: the one sanctioned fake, so server and tracker tests run without model
 * weights. It implements the Recognizer interface by reading the observations a test wrote into
 * the frame itself (a PNG `tEXt` chunk or a JPEG comment named `nerts-obs`), so frames travel
 * through the real sockets, queue and worker threads unchanged. A frame without that payload
 * yields no cards. `encodeFakeFrame` builds such frames.
 */
import { deflateSync, crc32 } from 'node:zlib';
import type { CardObservation, FrameInput, FrameObservations, LocatedFrame, StagedRecognizer, TableCalibration } from './types';
import type { CardCode } from '../game/cards';
import { readFrameHeader } from '../workers/frame-format';

const PAYLOAD_KEY = 'nerts-obs';

/**
 * Options of the fake: `delayMs` busy-waits per frame to stand in for recognition work, in its
 * first stage (localisation), `readDelayMs` in its second (reading), ms.
 */
export interface FakeRecognizerOptions {
  delayMs?: number;
  readDelayMs?: number;
}

/** Keeps this thread busy for `ms`: real recognition occupies the worker's CPU, not a timer. */
function busyFor(ms: number | undefined): void {
  const until = performance.now() + (ms ?? 0);
  while (performance.now() < until) {
    // busy on purpose
  }
}

/** What the fake remembers (tests read it back through the worker to check enrolment/calibration). */
export interface FakeRecognizerState {
  enrolledBacks: string[];
  /** How many views each back was last enrolled from. */
  backViews: Record<string, number>;
  /** How many views each enrolled face was last enrolled from. */
  faceViews: Record<string, number>;
  enrolledFaces: CardCode[];
  calibration: TableCalibration | null;
  /** Frames whose observations this copy gave (its second stage). */
  framesSeen: number;
  /** Frames this copy localised (its first stage). */
  framesLocated: number;
}

/** The fake's hand-over between its stages. */
interface FakeLocated {
  width: number;
  height: number;
  bytes: Uint8Array | null;
}

/** A fake Recognizer plus its observable state. */
export type FakeRecognizer = StagedRecognizer & { state: FakeRecognizerState };

/** Creates the fake recogniser. */
export function createFakeRecognizer(options: FakeRecognizerOptions = {}): FakeRecognizer {
  const state: FakeRecognizerState = { enrolledBacks: [], backViews: {}, faceViews: {}, enrolledFaces: [], calibration: null, framesSeen: 0, framesLocated: 0 };
  return {
    state,
    async recognize(frame: FrameInput, timestampMs: number): Promise<FrameObservations> {
      return this.readFrame(await this.locateFrame(frame, timestampMs));
    },
    // The two stages (StagedRecognizer): the first stands in for the work (delayMs), the second
    // reads the payload. Each copy counts the frames its own stage saw.
    async locateFrame(frame: FrameInput, timestampMs: number): Promise<LocatedFrame> {
      const started = performance.now();
      state.framesLocated += 1;
      busyFor(options.delayMs);
      const data: FakeLocated = frame.kind === 'rgb' ? { width: frame.width, height: frame.height, bytes: null } : { ...readFrameHeader(frame.data), bytes: frame.data };
      return { timestampMs, changed: null, data, buffers: [], timingsMs: { fake: performance.now() - started } };
    },
    async readFrame(located: LocatedFrame): Promise<FrameObservations> {
      state.framesSeen += 1;
      busyFor(options.readDelayMs);
      const { width, height, bytes } = located.data as FakeLocated;
      if (!bytes) return { timestampMs: located.timestampMs, width, height, cards: [] };
      return { timestampMs: located.timestampMs, width, height, cards: readPayload(bytes), timingsMs: { ...located.timingsMs } };
    },
    async enrollBack(backId: string, views: FrameInput[]): Promise<void> {
      if (views.length === 0 || views.length > 5) throw new Error('enrol a back from 1 to 5 views');
      if (!state.enrolledBacks.includes(backId)) state.enrolledBacks.push(backId);
      state.backViews[backId] = views.length;
    },
    async enrollFace(code: CardCode, views: FrameInput[]): Promise<void> {
      if (views.length === 0) {
        state.enrolledFaces = state.enrolledFaces.filter((face) => face !== code);
        delete state.faceViews[code];
        return;
      }
      if (!state.enrolledFaces.includes(code)) state.enrolledFaces.push(code);
      state.faceViews[code] = views.length;
    },
    setCalibration(calibration: TableCalibration | null): void {
      state.calibration = calibration;
    },
    dispose(): void {},
  };
}

function readPayload(bytes: Uint8Array): CardObservation[] {
  const text = findPngText(bytes) ?? findJpegComment(bytes);
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as CardObservation[]) : [];
  } catch {
    return [];
  }
}

function findPngText(b: Uint8Array): string | null {
  if (b[0] !== 0x89) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 8;
  while (at + 8 <= b.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
    if (type === 'tEXt') {
      const data = Buffer.from(b.subarray(at + 8, at + 8 + length)).toString('latin1');
      const nul = data.indexOf('\0');
      if (data.slice(0, nul) === PAYLOAD_KEY) return data.slice(nul + 1);
    }
    if (type === 'IEND') return null;
    at += 12 + length;
  }
  return null;
}

function findJpegComment(b: Uint8Array): string | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= b.length && b[at] === 0xff) {
    const marker = b[at + 1];
    const length = (b[at + 2] << 8) | b[at + 3];
    if (marker === 0xfe) {
      const text = Buffer.from(b.subarray(at + 4, at + 2 + length)).toString('latin1');
      if (text.startsWith(PAYLOAD_KEY + ':')) return text.slice(PAYLOAD_KEY.length + 1);
    }
    if (marker === 0xda) return null; // start of scan: no more headers
    at += 2 + length;
  }
  return null;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const blankIdatCache = new Map<string, Buffer>();

/**
 * Builds a valid RGB PNG of `width`×`height` pixels carrying `cards` for the fake recogniser
 * (what a test's camera sends): black, or `pixels` (packed RGB, row by row) when given.
 */
export function encodeFakeFrame(cards: CardObservation[], width = 1280, height = 720, pixels?: Uint8Array): Buffer {
  const key = `${width}x${height}`;
  let idat = pixels ? undefined : blankIdatCache.get(key);
  if (pixels) {
    if (pixels.length !== width * height * 3) throw new Error(`encodeFakeFrame: ${pixels.length} bytes of pixels for ${width}x${height} RGB`);
    // Each PNG row starts with its filter type (0: none).
    const rows = Buffer.alloc((width * 3 + 1) * height);
    for (let y = 0; y < height; y++) rows.set(pixels.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
    idat = pngChunk('IDAT', deflateSync(rows));
  } else if (!idat) {
    idat = pngChunk('IDAT', deflateSync(Buffer.alloc((width * 3 + 1) * height)));
    blankIdatCache.set(key, idat);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const text = pngChunk('tEXt', Buffer.from(`${PAYLOAD_KEY}\0${JSON.stringify(cards)}`, 'latin1'));
  return Buffer.concat([signature, pngChunk('IHDR', ihdr), text, idat, pngChunk('IEND', Buffer.alloc(0))]);
}
