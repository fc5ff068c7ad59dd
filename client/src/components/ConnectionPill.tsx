/** A small pill saying whether a socket is live, with the close reason as a tooltip. */
import type { SocketStatus } from '../lib/useSocket';

const LABELS: Record<SocketStatus, { text: string; tone: string }> = {
  open: { text: 'Live', tone: 'pill--ok' },
  connecting: { text: 'Connecting…', tone: 'pill--warn' },
  closed: { text: 'Reconnecting…', tone: 'pill--warn' },
  failed: { text: 'Not connected', tone: 'pill--danger' },
};

/** Connection status for headers. */
export function ConnectionPill({ status, reason }: { status: SocketStatus; reason?: string | null }) {
  const label = LABELS[status];
  return (
    <span className={`pill ${label.tone}`} role="status" title={reason ?? undefined} data-connection={status}>
      {label.text}
      {status === 'failed' && reason ? `: ${reason}` : ''}
    </span>
  );
}
