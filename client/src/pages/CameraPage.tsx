/**
 * Camera: opens a webcam (device, resolution and frame-rate choice), streams JPEG frames with
 * their capture time to the table's camera socket, and shows what the recogniser sees (card
 * outlines and names over the video), the connection, and send and processing rates.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { CLOSE_CODES, type FrameObservationsMessage } from '../../../server/protocol';
import { ConnectionPill } from '../components/ConnectionPill';
import { DetectionLayer } from '../components/DetectionLayer';
import { api, tableSocketPath } from '../lib/api';
import { FRAME_RATES, RESOLUTIONS, frameHeader, ratePerSecond, shouldSendFrame } from '../lib/cameraFrames';
import { seatColour } from '../lib/format';
import { Link } from '../lib/router';
import { tokenFor } from '../lib/tokens';
import { useLiveTable } from '../lib/useLiveTable';
import { useSocket } from '../lib/useSocket';

/** How often the camera page POSTs a frame to see its observations when it has no view token, ms. */
const POST_PREVIEW_INTERVAL_MS = 1000;

/** The camera page (standalone: a phone or laptop pointed at the table). */
export function CameraPage({ tableId }: { tableId: string }) {
  const liveTable = useLiveTable(tableId, { observations: true, urlRole: 'camera' });
  const { tokens, live } = liveTable;
  const cameraToken = tokenFor(tokens, 'camera');
  const hasViewer = Boolean(tokenFor(tokens, 'view'));

  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [deviceId, setDeviceId] = useState('');
  const [resolutionIndex, setResolutionIndex] = useState(1);
  const [fps, setFps] = useState<number>(10);
  const [quality, setQuality] = useState(0.8);
  const [streaming, setStreaming] = useState(false);
  const [mediaError, setMediaError] = useState<string | null>(null);
  const [videoSize, setVideoSize] = useState<{ width: number; height: number } | null>(null);
  const [sendRate, setSendRate] = useState(0);
  const [postedFrame, setPostedFrame] = useState<FrameObservationsMessage | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);

  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const sentTimesRef = useRef<number[]>([]);

  const socket = useSocket(streaming && cameraToken ? tableSocketPath(tableId, 'camera', cameraToken) : null, {
    onMessage: (message) => {
      const msg = message as { type?: string; message?: string; code?: string };
      if (msg.type === 'error') setServerError(`${msg.message} (${msg.code})`);
    },
    fatalCloseCodes: [CLOSE_CODES.badToken, CLOSE_CODES.forbidden, CLOSE_CODES.tableNotFound, CLOSE_CODES.replaced],
  });

  const { send: sendOnSocket, bufferedAmount } = socket;

  useEffect(() => {
    document.title = 'Camera · Nerts referee';
  }, []);

  const refreshDevices = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    const all = await navigator.mediaDevices.enumerateDevices();
    setDevices(all.filter((device) => device.kind === 'videoinput'));
  }, []);
  useEffect(() => {
    void refreshDevices();
  }, [refreshDevices]);

  const stop = useCallback(() => {
    streamRef.current?.getTracks().forEach((track) => track.stop());
    streamRef.current = null;
    setStreaming(false);
  }, []);
  useEffect(() => stop, [stop]);

  const start = async (): Promise<void> => {
    setMediaError(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setMediaError('This browser cannot open a camera here (it needs https or localhost).');
      return;
    }
    const resolution = RESOLUTIONS[resolutionIndex];
    try {
      stop();
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: false,
        video: {
          ...(deviceId ? { deviceId: { exact: deviceId } } : { facingMode: 'environment' }),
          width: { ideal: resolution.width },
          height: { ideal: resolution.height },
          frameRate: { ideal: fps },
        },
      });
      streamRef.current = stream;
      const video = videoRef.current;
      if (video) {
        video.srcObject = stream;
        await video.play().catch(() => undefined);
      }
      setStreaming(true);
      void refreshDevices(); // labels appear only after permission is granted
    } catch (error) {
      const name = (error as DOMException).name;
      setMediaError(
        name === 'NotAllowedError'
          ? 'Camera permission was refused: allow it in the browser’s site settings.'
          : name === 'NotFoundError' || name === 'OverconstrainedError'
            ? 'No camera matches that choice: pick another device or resolution.'
            : `Cannot open the camera: ${(error as Error).message}`,
      );
    }
  };

  // The capture loop: draw the video into a canvas, encode JPEG, send with the capture time.
  useEffect(() => {
    if (!streaming) return undefined;
    let cancelled = false;
    let lastSent = 0;
    let lastPost = 0;
    let encoding = false;
    const tick = (): void => {
      if (cancelled) return;
      const video = videoRef.current;
      const now = performance.now();
      if (video && video.videoWidth > 0 && !encoding && shouldSendFrame(now, lastSent, fps, bufferedAmount())) {
        lastSent = now;
        const width = video.videoWidth;
        const height = video.videoHeight;
        setVideoSize((size) => (size && size.width === width && size.height === height ? size : { width, height }));
        const canvas = (canvasRef.current ??= document.createElement('canvas'));
        canvas.width = width;
        canvas.height = height;
        canvas.getContext('2d')?.drawImage(video, 0, 0, width, height);
        const captureTimeMs = Date.now();
        encoding = true;
        canvas.toBlob(
          (blob) => {
            encoding = false;
            if (!blob || cancelled) return;
            // Without a view token the socket cannot show observations: POST one frame a second instead.
            const usePost = !hasViewer && now - lastPost >= POST_PREVIEW_INTERVAL_MS;
            if (usePost) {
              lastPost = now;
              api.postFrame(tableId, cameraToken, blob, captureTimeMs).then(setPostedFrame, (error: Error) => setServerError(error.message));
            } else if (!sendOnSocket(new Blob([frameHeader(captureTimeMs), blob]))) {
              return;
            }
            const times = sentTimesRef.current;
            times.push(Date.now());
            if (times.length > 90) times.splice(0, times.length - 90);
          },
          'image/jpeg',
          quality,
        );
      }
      setTimeout(tick, Math.max(5, 1000 / fps / 4));
    };
    tick();
    const rateTimer = setInterval(() => setSendRate(ratePerSecond(sentTimesRef.current, Date.now())), 1000);
    return () => {
      cancelled = true;
      clearInterval(rateTimer);
    };
  }, [streaming, fps, quality, sendOnSocket, bufferedAmount, hasViewer, tableId, cameraToken]);

  const observations = hasViewer ? live.observations : postedFrame;
  const deckColour = useMemo(() => {
    const bySeat = new Map((live.table?.seats ?? []).map((seat) => [seat.deckId, seatColour(seat.seat)]));
    return (backId: string) => bySeat.get(backId) ?? '#f0b429';
  }, [live.table]);
  const stats = live.stats;

  return (
    <>
      <header className="app-header">
        <Link href="/" className="app-header__brand"><span aria-hidden="true">♠♥</span> Nerts referee</Link>
        <span aria-hidden="true">/</span>
        <strong>Camera · {live.table?.name ?? tableId}</strong>
        <span style={{ marginLeft: 'auto' }} className="row">
          <ConnectionPill status={streaming ? socket.status : 'failed'} reason={streaming ? socket.closeReason : 'not streaming'} />
        </span>
      </header>
      <main className="page stack" data-testid="camera">
        {!cameraToken && <p className="notice notice--danger" role="alert">This link has no camera token. Open the camera link from the table’s page.</p>}
        {live.table?.source === 'sim' && (
          <p className="notice notice--warn">This table is fed by the simulator. Frames you send here replace it only after the referee switches the source to “camera” in Setup.</p>
        )}
        <form className="panel form-grid" onSubmit={(e) => { e.preventDefault(); void (streaming ? stop() : start()); }}>
          <div className="field">
            <label htmlFor="camera-device">Camera</label>
            <select id="camera-device" value={deviceId} onChange={(e) => setDeviceId(e.target.value)}>
              <option value="">Default (rear camera on phones)</option>
              {devices.map((device, index) => (
                <option key={device.deviceId || index} value={device.deviceId}>{device.label || `Camera ${index + 1}`}</option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="camera-resolution">Resolution</label>
            <select id="camera-resolution" value={resolutionIndex} onChange={(e) => setResolutionIndex(Number(e.target.value))}>
              {RESOLUTIONS.map((resolution, index) => <option key={resolution.label} value={index}>{resolution.label}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="camera-fps">Frames per second</label>
            <select id="camera-fps" value={fps} onChange={(e) => setFps(Number(e.target.value))}>
              {FRAME_RATES.map((rate) => <option key={rate} value={rate}>{rate}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="camera-quality">JPEG quality <span className="hint">{Math.round(quality * 100)}</span></label>
            <input id="camera-quality" type="range" min={0.5} max={0.95} step={0.05} value={quality} onChange={(e) => setQuality(Number(e.target.value))} />
          </div>
          <div className="field" style={{ justifyContent: 'flex-end' }}>
            <button type="submit" className={streaming ? 'danger' : 'primary'} disabled={!cameraToken}>{streaming ? 'Stop' : 'Start camera'}</button>
          </div>
        </form>
        {mediaError && <p className="error" role="alert">{mediaError}</p>}
        {serverError && <p className="notice notice--danger" role="alert">Server: {serverError}</p>}
        <section className="row small" aria-label="Camera status" data-testid="camera-stats">
          <span className="pill pill--plain">sending {sendRate.toFixed(1)} fps</span>
          {videoSize && <span className="pill pill--plain">{videoSize.width} × {videoSize.height}</span>}
          {stats && <span className="pill pill--plain">recognised {stats.fps.toFixed(1)} fps · p95 {Math.round(stats.p95Ms)} ms</span>}
          {stats && <span className="pill pill--plain">dropped {stats.framesDropped} · rejected {stats.framesRejected}</span>}
          {observations && <span className="pill pill--plain">{observations.cards.length} cards seen</span>}
        </section>
        <div className="video-wrap" style={{ maxWidth: 960 }}>
          <video ref={videoRef} muted playsInline aria-label="Camera preview" onLoadedMetadata={(e) => setVideoSize({ width: e.currentTarget.videoWidth, height: e.currentTarget.videoHeight })} />
          {videoSize && <DetectionLayer frame={observations} width={videoSize.width} height={videoSize.height} backColour={deckColour} />}
        </div>
        {!streaming && <p className="muted small">Point the camera straight down at the table if you can, with every seat’s Nerts pile and the centre in view.</p>}
      </main>
    </>
  );
}
