/**
 * Recorded observations: what the real recogniser saw on simulated hands, frame by frame, with
 * each hand's truth, in a JSON-lines file. Recognising a hand takes minutes on this machine;
 * refereeing the recorded observations again (truth-referee.ts) takes a second, so the tracker
 * can be tuned and measured on real recogniser output many times over
 * (`npm run record:observations`, then `npm run bench:referee -- --observations FILE`).
 *
 * Format `nerts-observations/1`, one JSON object a line:
 * - first `{ type: 'meta', format, seed, players, variant, calibration }`;
 * - then `{ type: 'frame', hand, frameIndex, timeMs, obs, wholeRead? }` (obs: FrameObservations without timings;
 *   `wholeRead: true` where the frame was read whole)
 *   and, after a hand's last frame, `{ type: 'truth', hand, truth }` (HandTruth);
 * - `{ type: 'call', hand, timeMs, player }` where a referee called for a player because the camera
 *   had missed the call (`bench:referee -- --record`): the tracker is told before the next frame.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { HandTruth } from '../sim/bots/engine';
import type { FrameObservations, TableCalibration } from '../vision/types';
import type { ObservedFrame, RefereedTable } from './truth-referee';

export const RECORDING_FORMAT = 'nerts-observations/1';

/** The first line of a recording. */
export interface RecordingMeta extends RefereedTable {
  type: 'meta';
  format: typeof RECORDING_FORMAT;
  seed: number;
  calibration: TableCalibration | null;
}

type RecordingLine =
  | RecordingMeta
  | { type: 'frame'; hand: number; frameIndex: number; timeMs: number; obs: FrameObservations; wholeRead?: boolean }
  | { type: 'truth'; hand: number; truth: HandTruth }
  | { type: 'call'; hand: number; timeMs: number; player: string };

/** Writes a recording line by line. */
export class RecordingWriter {
  private readonly out: WriteStream;

  constructor(file: string, meta: Omit<RecordingMeta, 'type' | 'format'>) {
    this.out = createWriteStream(file);
    this.write({ type: 'meta', format: RECORDING_FORMAT, ...meta });
  }

  /** `wholeRead`: the frame was read whole (a score-sort frame, RecognizeOptions.everyCard). */
  frame(hand: number, frameIndex: number, timeMs: number, observations: FrameObservations, wholeRead = false): void {
    const { timingsMs: _timings, ...obs } = observations;
    this.write({ type: 'frame', hand, frameIndex, timeMs, obs, ...(wholeRead ? { wholeRead } : {}) });
  }

  truth(hand: number, truth: HandTruth): void {
    this.write({ type: 'truth', hand, truth });
  }

  /** A referee called for `player` (the camera had missed the call). */
  call(hand: number, timeMs: number, player: string): void {
    this.write({ type: 'call', hand, timeMs, player });
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }

  private write(line: RecordingLine): void {
    this.out.write(`${JSON.stringify(line)}\n`);
  }
}

/** A line as JSON, or null when it is not JSON (the file is no recording). */
function parseLine(line: string): RecordingMeta | null {
  try {
    return JSON.parse(line) as RecordingMeta;
  } catch {
    return null;
  }
}

/**
 * Opens a recording: its meta line, and its frames as ObservedFrames (a hand's last frame
 * carries that hand's truth). Throws a clear error for a file that is not a recording.
 */
export async function openRecording(file: string): Promise<{ meta: RecordingMeta; frames: AsyncGenerator<ObservedFrame> }> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const first = await lines.next();
  const meta = first.done ? null : parseLine(first.value);
  if (!meta || meta.type !== 'meta' || meta.format !== RECORDING_FORMAT) throw new Error(`${file} is not a ${RECORDING_FORMAT} recording`);
  async function* frames(): AsyncGenerator<ObservedFrame> {
    // A frame is held back until the next line says whether its hand's truth follows.
    let held: ObservedFrame | null = null;
    let calledBy: string | null = null;
    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      if (!next.value.trim()) continue;
      const line = JSON.parse(next.value) as RecordingLine;
      if (line.type === 'frame') {
        if (held) yield held;
        held = { handIndex: line.hand, timeMs: line.timeMs, observations: line.obs, ...(calledBy !== null ? { calledBy } : {}) };
        calledBy = null;
      } else if (line.type === 'call') {
        calledBy = line.player;
      } else if (line.type === 'truth' && held && held.handIndex === line.hand) {
        yield { ...held, handTruth: line.truth };
        held = null;
      }
    }
    if (held) yield held;
  }
  return { meta, frames: frames() };
}

/**
 * Which camera frames a live server reads (record:observations --pace live): the camera runs
 * on while a frame is recognised, and the first frame captured once the recogniser is free
 * again is the next one read; those in between are dropped.
 */
export class LivePacer {
  private freeAtMs = -Infinity;

  /** Whether the frame captured at `timeMs` is read. */
  takes(timeMs: number): boolean {
    return timeMs >= this.freeAtMs;
  }

  /** The frame captured at `timeMs` took `workMs` to read. */
  read(timeMs: number, workMs: number): void {
    this.freeAtMs = timeMs + workMs;
  }
}
