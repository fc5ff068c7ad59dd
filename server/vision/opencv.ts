/**
 * Loads OpenCV (wasm build from @techstark/opencv-js) once. The package's own typings pull in
 * a large third-party type tree; we type only the handful of calls the vision stages make.
 */
import { createRequire } from 'node:module';

/** An OpenCV matrix (freed with delete(): it lives on the wasm heap, not the JS heap). */
export interface CvMat {
  rows: number;
  cols: number;
  data: Uint8Array;
  data32S: Int32Array;
  delete(): void;
  size(): number;
}
/** A list of matrices (contours). */
export interface CvMatVector {
  size(): number;
  get(i: number): CvMat;
  push_back(m: CvMat): void;
  delete(): void;
}
/** A rotated rectangle, pixels and degrees. */
export interface CvRotatedRect {
  center: { x: number; y: number };
  size: { width: number; height: number };
  angle: number;
}

/** The OpenCV calls we use. */
export interface OpenCv {
  Mat: new (...args: unknown[]) => CvMat;
  MatVector: new () => CvMatVector;
  Size: new (w: number, h: number) => unknown;
  Point: new (x: number, y: number) => unknown;
  Scalar: new (...v: number[]) => unknown;
  CV_8UC1: number;
  CV_32SC2: number;
  CV_8UC3: number;
  COLOR_RGB2HSV: number;
  COLOR_RGB2GRAY: number;
  COLOR_RGB2Lab: number;
  THRESH_BINARY: number;
  THRESH_OTSU: number;
  MORPH_OPEN: number;
  MORPH_CLOSE: number;
  MORPH_RECT: number;
  RETR_EXTERNAL: number;
  CHAIN_APPROX_SIMPLE: number;
  INTER_AREA: number;
  INTER_NEAREST: number;
  resize(src: CvMat, dst: CvMat, size: unknown, fx: number, fy: number, interpolation: number): void;
  cvtColor(src: CvMat, dst: CvMat, code: number): void;
  split(src: CvMat, channels: CvMatVector): void;
  threshold(src: CvMat, dst: CvMat, thresh: number, maxval: number, type: number): number;
  bitwise_and(a: CvMat, b: CvMat, dst: CvMat): void;
  getStructuringElement(shape: number, size: unknown): CvMat;
  morphologyEx(src: CvMat, dst: CvMat, op: number, kernel: CvMat): void;
  findContours(src: CvMat, contours: CvMatVector, hierarchy: CvMat, mode: number, method: number): void;
  contourArea(contour: CvMat): number;
  arcLength(contour: CvMat, closed: boolean): number;
  approxPolyDP(contour: CvMat, out: CvMat, epsilon: number, closed: boolean): void;
  minAreaRect(contour: CvMat): CvRotatedRect;
  convexHull(contour: CvMat, hull: CvMat, clockwise: boolean, returnPoints: boolean): void;
  matFromArray(rows: number, cols: number, type: number, array: ArrayLike<number>): CvMat;
  warpPerspective(src: CvMat, dst: CvMat, m: CvMat, size: unknown, flags: number): void;
  CV_64FC1: number;
  subtract(a: CvMat, b: CvMat, dst: CvMat): void;
  Canny(src: CvMat, edges: CvMat, threshold1: number, threshold2: number): void;
  dilate(src: CvMat, dst: CvMat, kernel: CvMat): void;
  bitwise_not(src: CvMat, dst: CvMat): void;
  bitwise_or(a: CvMat, b: CvMat, dst: CvMat): void;
  adaptiveThreshold(src: CvMat, dst: CvMat, maxValue: number, method: number, type: number, blockSize: number, c: number): void;
  GaussianBlur(src: CvMat, dst: CvMat, size: unknown, sigma: number): void;
  HoughLinesP(src: CvMat, lines: CvMat, rho: number, theta: number, threshold: number, minLineLength: number, maxLineGap: number): void;
  medianBlur(src: CvMat, dst: CvMat, ksize: number): void;
  drawContours(image: CvMat, contours: CvMatVector, index: number, color: unknown, thickness: number): void;
  fillPoly(image: CvMat, polygons: CvMatVector, color: unknown): void;
  ADAPTIVE_THRESH_MEAN_C: number;
  RETR_LIST: number;
  RETR_CCOMP: number;
  INTER_LINEAR: number;
}

let loading: Promise<{ cv: OpenCv }> | null = null;

/** Resolves once the OpenCV wasm runtime is ready (about 0.15 s, once per process). */
export function loadOpenCv(): Promise<{ cv: OpenCv }> {
  loading ??= new Promise((resolve) => {
    // Plain Node require: bundler-style loaders (vitest) choke on the 7.6 MB emscripten file.
    // The module object is a thenable that calls back with itself; we wrap it so awaiting our
    // promise does not recurse into that `then`.
    const mod = createRequire(import.meta.url)('@techstark/opencv-js') as OpenCv & { onRuntimeInitialized?: () => void };
    if (mod.Mat) resolve({ cv: mod });
    else mod.onRuntimeInitialized = () => resolve({ cv: mod });
  });
  return loading;
}
