/**
 * The table's latest camera frame (refreshed about once a second) with the recognised cards
 * drawn over it. Asks the live socket for observations while mounted.
 */
import { useEffect, useMemo, useState } from 'react';
import { tableResourceUrl } from '../lib/api';
import { seatColour } from '../lib/format';
import { tokenFor } from '../lib/tokens';
import { useTable } from '../lib/useLiveTable';
import { useNow } from '../lib/useNow';
import { DetectionLayer } from './DetectionLayer';

/** Latest frame plus detections, for the dashboard. */
export function LiveFrame() {
  const { tableId, tokens, live, setObservationsWanted } = useTable();
  const viewToken = tokenFor(tokens, 'view');
  const now = useNow(1000);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setObservationsWanted(true);
    return () => setObservationsWanted(false);
  }, [setObservationsWanted]);
  const deckColour = useMemo(() => {
    const byDeck = new Map((live.table?.seats ?? []).map((seat) => [seat.deckId, seatColour(seat.seat)]));
    return (backId: string) => byDeck.get(backId) ?? '#f0b429';
  }, [live.table]);
  if (!viewToken) return null;
  return (
    <div className="video-wrap">
      <img src={tableResourceUrl(tableId, 'frame.jpg', viewToken, { t: String(Math.floor(now / 1000)) })} alt="Latest camera frame"
        style={failed && !size ? { display: 'none' } : undefined}
        onLoad={(e) => { setFailed(false); setSize({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight }); }}
        onError={() => setFailed(true)} />
      {failed && !size && <p style={{ color: '#fff', padding: '1rem', margin: 0 }} role="status">No frame received yet.</p>}
      {size && <DetectionLayer frame={live.observations} width={size.width} height={size.height} backColour={deckColour} />}
    </div>
  );
}
