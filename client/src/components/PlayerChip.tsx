/** A player's name with their deck colour, used everywhere a player is named. */
import { seatColour } from '../lib/format';

/** Name plus colour swatch; `seat` picks the colour. */
export function PlayerChip({ name, seat, team }: { name: string; seat: number; team?: string }) {
  return (
    <span className="player__name">
      <span className="player__swatch" style={{ background: seatColour(seat) }} aria-hidden="true" />
      {name}
      {team ? <span className="muted small">({team})</span> : null}
    </span>
  );
}
