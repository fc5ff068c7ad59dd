/**
 * A playing card drawn as a card: big rank and suit in the corner and the middle, red or black,
 * readable across a table. Also draws a face-down back and an empty pile slot.
 */
import { cardFace, cardName } from '../lib/cardNames';
import type { CardCode } from '../../../server/game/cards';

/** Card sizes in CSS pixels of width (height is width * 88/63, the real card's aspect). */
export type CardSize = 'xs' | 'sm' | 'md' | 'lg';

/** Props: a face (code), a back (`back` with an optional colour), or an empty slot (neither). */
export interface CardProps {
  code?: CardCode | string | null;
  back?: boolean;
  /** CSS colour of the back design (a player's deck colour). */
  backColour?: string;
  size?: CardSize;
  /** A small badge in the lower corner, e.g. the pile height. */
  badge?: string | number;
  /** Dim a card, e.g. a completed foundation. */
  muted?: boolean;
  title?: string;
}

/** One card, face, back or empty slot. */
export function Card({ code, back, backColour, size = 'md', badge, muted, title }: CardProps) {
  const classes = ['card', `card--${size}`];
  if (muted) classes.push('card--muted');
  if (back) {
    return (
      <span className={[...classes, 'card--back'].join(' ')} style={backColour ? { ['--back' as string]: backColour } : undefined}
        role="img" aria-label={title ?? 'card face down'} title={title}>
        {badge !== undefined && <span className="card__badge">{badge}</span>}
      </span>
    );
  }
  const face = code ? cardFace(code) : null;
  if (!face) {
    return (
      <span className={[...classes, 'card--empty'].join(' ')} role="img" aria-label={title ?? 'empty pile'} title={title}>
        {badge !== undefined && <span className="card__badge">{badge}</span>}
      </span>
    );
  }
  classes.push(face.colour === 'red' ? 'card--red' : 'card--black');
  const label = title ?? cardName(code as CardCode);
  return (
    <span className={classes.join(' ')} role="img" aria-label={label} title={label} data-card={code}>
      <span className="card__corner" aria-hidden="true">
        <span className="card__rank">{face.rank}</span>
        <span className="card__suit">{face.symbol}</span>
      </span>
      <span className="card__pip" aria-hidden="true">{face.symbol}</span>
      {badge !== undefined && <span className="card__badge">{badge}</span>}
    </span>
  );
}
