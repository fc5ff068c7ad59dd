/**
 * What the recogniser saw, drawn over an image: each card's outline and name (faces in red or
 * black, backs in their deck colour), and optional clicked calibration points. The SVG uses the
 * frame's pixel coordinates as its viewBox, so it lines up with the image at any display size.
 */
import type { MouseEvent } from 'react';
import type { FrameObservationsMessage } from '../../../server/protocol';
import { cardFace } from '../lib/cardNames';

/** A marked point in image pixels with a label (calibration corners and centre). */
export interface MarkedPoint {
  x: number;
  y: number;
  label: string;
}

/** Props: observations to draw (may be null), the image size in pixels, and optional click handling. */
export interface DetectionLayerProps {
  frame: FrameObservationsMessage | null;
  width: number;
  height: number;
  points?: MarkedPoint[];
  /** Closed outline through the first four points (the table rectangle). */
  outline?: boolean;
  /** Calibration zones to outline, image pixels. */
  zones?: Array<{ id: string; kind: string; points: Array<[number, number]> }>;
  /** Called with the clicked position in image pixels. */
  onPick?: (x: number, y: number) => void;
  /** Colour of a back by its back id (deck id). */
  backColour?: (backId: string) => string;
}

/** Readings below this confidence are drawn dashed and dim (the server's default live floor). */
const FAINT_BELOW = 0.35;

/** SVG layer to put over an <img>/<video> inside `.video-wrap`. */
export function DetectionLayer({ frame, width, height, points = [], outline, zones = [], onPick, backColour }: DetectionLayerProps) {
  const handleClick = (event: MouseEvent<SVGSVGElement>): void => {
    if (!onPick) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const x = ((event.clientX - rect.left) / rect.width) * width;
    const y = ((event.clientY - rect.top) / rect.height) * height;
    onPick(Math.round(x), Math.round(y));
  };
  // Observations from a frame of another size (resolution change) are scaled to this one.
  const sx = frame && frame.width ? width / frame.width : 1;
  const sy = frame && frame.height ? height / frame.height : 1;
  const stroke = Math.max(2, width / 400);
  const fontSize = Math.max(12, width / 55);
  return (
    <svg className={`overlay-boxes${onPick ? ' clickable' : ''}`} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" onClick={onPick ? handleClick : undefined}
      role={onPick ? 'presentation' : 'img'} aria-label={onPick ? undefined : `${frame?.cards.length ?? 0} cards recognised`} data-testid="detections">
      {zones.map((zone) => (
        <polygon key={zone.id} points={zone.points.map(([x, y]) => `${x},${y}`).join(' ')} fill={zone.kind === 'centre' ? 'rgb(63 208 255 / 0.10)' : 'none'}
          stroke={zone.kind === 'centre' ? '#3fd0ff' : 'rgb(255 255 255 / 0.55)'} strokeWidth={stroke / 2}>
          <title>{zone.id}</title>
        </polygon>
      ))}
      {frame?.cards.map((card, index) => {
        // A card read from under others is outlined where it shows, not under the card on top.
        const outline = card.visible ?? card.corners;
        const pts = outline.map(([x, y]) => `${x * sx},${y * sy}`).join(' ');
        const face = card.kind === 'face' && card.code ? cardFace(card.code) : null;
        const colour = face ? (face.colour === 'red' ? '#ff4d5a' : '#3fd0ff') : backColour?.(card.backId ?? '') ?? '#f0b429';
        const label = face ? `${face.rank}${face.symbol}` : `back ${card.backId ?? '?'}`;
        const [lx, ly] = outline[0];
        // A faint centre reading (kept for the referee to weigh against its pile) is drawn dashed and dim.
        const faint = card.confidence < FAINT_BELOW;
        return (
          <g key={index} opacity={faint ? 0.55 : 1}>
            <polygon points={pts} fill="none" stroke={colour} strokeWidth={stroke} strokeDasharray={faint ? `${stroke * 3} ${stroke * 2}` : undefined} />
            <text x={lx * sx} y={ly * sy - stroke * 2} fill={colour} fontSize={fontSize} fontWeight={700} stroke="#000" strokeWidth={stroke / 2} paintOrder="stroke">
              {label} {Math.round(card.confidence * 100)}%
            </text>
          </g>
        );
      })}
      {outline && points.length >= 4 && (
        <polygon points={points.slice(0, 4).map((p) => `${p.x},${p.y}`).join(' ')} fill="rgb(240 180 41 / 0.12)" stroke="#f0b429" strokeWidth={stroke} strokeDasharray={`${stroke * 4} ${stroke * 2}`} />
      )}
      {points.map((point) => (
        <g key={point.label}>
          <circle cx={point.x} cy={point.y} r={stroke * 4} fill="#f0b429" stroke="#000" strokeWidth={stroke / 2} />
          <text x={point.x + stroke * 5} y={point.y < fontSize * 2 ? point.y + fontSize + stroke * 3 : point.y - stroke * 3} fill="#f0b429" fontSize={fontSize} fontWeight={700} stroke="#000" strokeWidth={stroke / 2} paintOrder="stroke">
            {point.label}
          </text>
        </g>
      ))}
    </svg>
  );
}
