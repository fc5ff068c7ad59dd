/**
 * Pinhole camera over the table: projects table millimetres (x right, y towards the bottom of a
 * top-down image, z up from the cloth) to image pixels. Pure maths, no I/O.
 */
import type { Point, Quad } from '../../vision/types';
import type { Rng } from './rng';

/** A point in table millimetres. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** Where the webcam is and how it looks at the table. */
export interface CameraPose {
  /** Image size, pixels. */
  width: number;
  height: number;
  /** Pinhole focal length, pixels (square pixels, principal point at the image centre). */
  focalPx: number;
  /** Camera centre, table millimetres (z above the cloth). */
  positionMm: Vec3;
  /** The table point the optical axis passes through, table millimetres. */
  lookAtMm: Vec3;
  /** Rotation of the image about the optical axis, radians (0 = table +y points down the image). */
  rollRad: number;
}

/** Table size the camera presets frame when the caller gives none, millimetres. */
export const DEFAULT_TABLE_MM = { widthMm: 1200, heightMm: 800 } as const;

/** Horizontal field of view of a typical webcam (about 65 degrees), radians. */
export const WEBCAM_HFOV_RAD = (65 * Math.PI) / 180;

/** Camera-space basis: right, down and forward unit vectors plus the centre. */
export interface CameraFrame {
  right: Vec3;
  down: Vec3;
  forward: Vec3;
  centre: Vec3;
  focalPx: number;
  cx: number;
  cy: number;
}

const sub = (a: Vec3, b: Vec3): Vec3 => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const dot = (a: Vec3, b: Vec3): number => a.x * b.x + a.y * b.y + a.z * b.z;
const scale = (a: Vec3, s: number): Vec3 => ({ x: a.x * s, y: a.y * s, z: a.z * s });
const cross = (a: Vec3, b: Vec3): Vec3 => ({
  x: a.y * b.z - a.z * b.y,
  y: a.z * b.x - a.x * b.z,
  z: a.x * b.y - a.y * b.x,
});
const normalise = (a: Vec3): Vec3 => scale(a, 1 / Math.hypot(a.x, a.y, a.z));

/** Builds the camera's orthonormal frame; throws if the pose is degenerate (programmer error). */
export function cameraFrame(camera: CameraPose): CameraFrame {
  const forward = normalise(sub(camera.lookAtMm, camera.positionMm));
  if (!Number.isFinite(forward.x)) throw new Error('camera: position equals lookAt');
  // Image "down" follows table +y, as in a top-down image; fall back to -z if looking along y.
  let downHint: Vec3 = { x: 0, y: 1, z: 0 };
  if (Math.abs(dot(downHint, forward)) > 0.999) downHint = { x: 0, y: 0, z: -1 };
  const down0 = normalise(sub(downHint, scale(forward, dot(downHint, forward))));
  const right0 = cross(forward, down0);
  const c = Math.cos(camera.rollRad);
  const s = Math.sin(camera.rollRad);
  const right = { x: right0.x * c + down0.x * s, y: right0.y * c + down0.y * s, z: right0.z * c + down0.z * s };
  const down = { x: down0.x * c - right0.x * s, y: down0.y * c - right0.y * s, z: down0.z * c - right0.z * s };
  return {
    right,
    down,
    forward,
    centre: camera.positionMm,
    focalPx: camera.focalPx,
    cx: camera.width / 2,
    cy: camera.height / 2,
  };
}

/** Projects a table point (mm) to image pixels; null when it lies behind the camera. */
export function projectPoint(frame: CameraFrame, xMm: number, yMm: number, zMm = 0): Point | null {
  const px = xMm - frame.centre.x;
  const py = yMm - frame.centre.y;
  const pz = zMm - frame.centre.z;
  const depth = px * frame.forward.x + py * frame.forward.y + pz * frame.forward.z;
  if (depth <= 1) return null;
  const xc = px * frame.right.x + py * frame.right.y + pz * frame.right.z;
  const yc = px * frame.down.x + py * frame.down.y + pz * frame.down.z;
  return [frame.cx + (frame.focalPx * xc) / depth, frame.cy + (frame.focalPx * yc) / depth];
}

/** Row-major 3x3 matrix. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

/**
 * Homography from a plane in 3-D (origin + s*axisS + t*axisT, mm) to image pixels, so that
 * [u w, v w, w] = H [s, t, 1]. Exact for flat cards at any height and camera tilt.
 */
export function planeHomography(frame: CameraFrame, origin: Vec3, axisS: Vec3, axisT: Vec3): Mat3 {
  const o = sub(origin, frame.centre);
  // Camera-space vector -> homogeneous image column (same linear map for points and directions).
  const col = (v: Vec3): [number, number, number] => {
    const x = dot(v, frame.right);
    const y = dot(v, frame.down);
    const z = dot(v, frame.forward);
    return [frame.focalPx * x + frame.cx * z, frame.focalPx * y + frame.cy * z, z];
  };
  const a = col(axisS);
  const b = col(axisT);
  const c = col(o);
  return [a[0], b[0], c[0], a[1], b[1], c[1], a[2], b[2], c[2]];
}

/** Inverse of a 3x3 matrix; throws on a singular matrix (programmer error). */
export function invert3(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-12) throw new Error('invert3: singular matrix');
  const k = 1 / det;
  return [
    A * k, -(b * i - c * h) * k, (b * f - c * e) * k,
    B * k, (a * i - c * g) * k, -(a * f - c * d) * k,
    C * k, -(a * h - b * g) * k, (a * e - b * d) * k,
  ];
}

// Four-point homographies and their application are shared with the recogniser.
export { applyHomography, homographyFromPoints } from '../../geometry';

/** Focal length giving a horizontal field of view `hfovRad` at `width` pixels. */
export function focalForFov(width: number, hfovRad: number): number {
  return width / 2 / Math.tan(hfovRad / 2);
}

/**
 * Camera presets: 'top' looks straight down and frames the whole table; 'oblique' sits on the
 * near (+y) side, tilted `tiltRad` from vertical (default 40 degrees), as close as it can while
 * keeping the central 92 % of the table in view.
 */
export function presetCamera(
  kind: 'top' | 'oblique',
  width: number,
  height: number,
  table: { widthMm: number; heightMm: number } = DEFAULT_TABLE_MM,
  tiltRad = (40 * Math.PI) / 180,
): CameraPose {
  const focalPx = focalForFov(width, WEBCAM_HFOV_RAD);
  const margin = 1.05;
  // Height at which the table fits both ways when looking straight down.
  const fitHeight = Math.max(
    ((table.widthMm * margin) / 2) * (focalPx / (width / 2)),
    ((table.heightMm * margin) / 2) * (focalPx / (height / 2)),
  );
  if (kind === 'top') {
    return { width, height, focalPx, positionMm: { x: 0, y: 0, z: fitHeight }, lookAtMm: { x: 0, y: 0, z: 0 }, rollRad: 0 };
  }
  // Tilted: the near side looms larger, so back off until the table is in view. The outer few
  // per cent (empty corners, players' edge) may be cut so the cards stay as large as possible.
  const tiltedMargin = 0.92;
  const corners: Array<[number, number]> = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([sx, sy]) => [(sx * table.widthMm * tiltedMargin) / 2, (sy * table.heightMm * tiltedMargin) / 2]);
  const fits = (camera: CameraPose): boolean => {
    const frame = cameraFrame(camera);
    return corners.every(([x, y]) => {
      const p = projectPoint(frame, x, y, 0);
      return p !== null && p[0] >= 0 && p[0] <= width && p[1] >= 0 && p[1] <= height;
    });
  };
  // Aim a little past the centre (towards the far side) so the table fills the frame evenly;
  // keep the aim that lets the camera come closest.
  let best: CameraPose | null = null;
  let bestScale = Infinity;
  for (let aim = 0; aim <= 0.4; aim += 0.025) {
    const lookAt = { x: 0, y: -aim * table.heightMm, z: 0 };
    for (let scale = 0.5; scale < Math.min(bestScale, 4); scale += 0.02) {
      const camera = tiltedCamera(width, height, focalPx, fitHeight * scale, tiltRad, 0, lookAt);
      if (fits(camera)) {
        best = camera;
        bestScale = scale;
        break;
      }
    }
  }
  return best ?? tiltedCamera(width, height, focalPx, fitHeight * 1.5, tiltRad, 0);
}

/** A camera at `distanceMm` from the table centre, tilted `tiltRad` from vertical towards +y, rotated `azimuthRad` about the table normal. */
export function tiltedCamera(
  width: number,
  height: number,
  focalPx: number,
  distanceMm: number,
  tiltRad: number,
  azimuthRad: number,
  lookAtMm: Vec3 = { x: 0, y: 0, z: 0 },
  rollRad = 0,
): CameraPose {
  // Tilted views see the far side smaller, so come a little closer to keep the table large.
  const distance = distanceMm * (1 - 0.12 * Math.sin(tiltRad));
  const horizontal = distance * Math.sin(tiltRad);
  return {
    width,
    height,
    focalPx,
    positionMm: {
      x: lookAtMm.x - horizontal * Math.sin(azimuthRad),
      y: lookAtMm.y + horizontal * Math.cos(azimuthRad),
      z: distance * Math.cos(tiltRad),
    },
    lookAtMm,
    rollRad,
  };
}

/** A random plausible webcam pose (tilt 0..45 degrees, any side, small roll and aim offsets), for datasets. */
export function randomCamera(
  rng: Rng,
  width: number,
  height: number,
  table: { widthMm: number; heightMm: number } = DEFAULT_TABLE_MM,
): CameraPose {
  const hfov = rng.range(55, 78) * (Math.PI / 180);
  const focalPx = focalForFov(width, hfov);
  const tilt = rng.chance(0.3) ? rng.range(0, 8) * (Math.PI / 180) : rng.range(8, 45) * (Math.PI / 180);
  const azimuth = rng.chance(0.5) ? 0 : rng.pick([0, Math.PI / 2, Math.PI, -Math.PI / 2]) + rng.range(-0.4, 0.4);
  const fit = Math.max(
    (table.widthMm / 2) * (focalPx / (width / 2)),
    (table.heightMm / 2) * (focalPx / (height / 2)),
  );
  const distance = fit * rng.range(0.45, 1.05);
  const lookAt = { x: rng.range(-0.2, 0.2) * table.widthMm, y: rng.range(-0.2, 0.2) * table.heightMm, z: 0 };
  return tiltedCamera(width, height, focalPx, distance, tilt, azimuth, lookAt, rng.range(-0.08, 0.08));
}

/** Checks a caller-supplied pose and returns a clear error message, or null when valid. */
export function validateCamera(camera: CameraPose): string | null {
  const finite = (n: number) => Number.isFinite(n);
  if (!(camera.width > 0 && camera.height > 0)) return 'camera width and height must be positive';
  if (!(camera.focalPx > 0)) return 'camera focalPx must be positive';
  const p = camera.positionMm;
  const l = camera.lookAtMm;
  if (![p.x, p.y, p.z, l.x, l.y, l.z, camera.rollRad].every(finite)) return 'camera pose has non-finite numbers';
  if (p.z <= 0) return 'camera must be above the table (positionMm.z > 0)';
  if (Math.hypot(p.x - l.x, p.y - l.y, p.z - l.z) < 1) return 'camera positionMm equals lookAtMm';
  return null;
}
