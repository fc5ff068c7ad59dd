/**
 * Suit symbols as SVG markup, drawn by our own code so generated deck styles need no external
 * art. Every symbol fits a box of about 100 units centred on the origin.
 */
import type { Suit } from '../../game/cards';

const HEART = 'M0,46 C-18,28 -50,8 -50,-18 C-50,-38 -36,-50 -22,-50 C-10,-50 -2,-42 0,-32 C2,-42 10,-50 22,-50 C36,-50 50,-38 50,-18 C50,8 18,28 0,46 Z';
const DIAMOND_STRAIGHT = 'M0,-50 L38,0 L0,50 L-38,0 Z';
const DIAMOND_CURVED = 'M0,-50 Q14,-18 38,0 Q14,18 0,50 Q-14,18 -38,0 Q-14,-18 0,-50 Z';
const SPADE =
  'M0,-50 C-18,-28 -50,-10 -50,12 C-50,30 -36,38 -23,38 C-13,38 -6,33 -3,27 C-4,38 -10,45 -19,50 L19,50 C10,45 4,38 3,27 C6,33 13,38 23,38 C36,38 50,30 50,12 C50,-10 18,-28 0,-50 Z';
const CLUB_STEM = 'M-5,8 C-5,28 -11,42 -20,50 L20,50 C11,42 5,28 5,8 Z';

/** SVG elements for one suit symbol, centred at the origin, about 100 units tall, filled with `fill`. */
export function suitSymbol(suit: Suit, fill: string, curvedDiamond = false): string {
  switch (suit) {
    case 'H':
      return `<path d="${HEART}" fill="${fill}"/>`;
    case 'D':
      return `<path d="${curvedDiamond ? DIAMOND_CURVED : DIAMOND_STRAIGHT}" fill="${fill}"/>`;
    case 'S':
      return `<path d="${SPADE}" fill="${fill}"/>`;
    case 'C':
      return (
        `<g fill="${fill}"><circle cx="0" cy="-25" r="21"/><circle cx="-24" cy="9" r="21"/>` +
        `<circle cx="24" cy="9" r="21"/><circle cx="0" cy="2" r="12"/><path d="${CLUB_STEM}"/></g>`
      );
  }
}

/** A suit symbol placed at (x, y) with height `size` (same units as the caller's SVG), optionally upside down. */
export function placedSuit(suit: Suit, fill: string, x: number, y: number, size: number, flipped = false, curvedDiamond = false): string {
  const s = size / 100;
  return `<g transform="translate(${x.toFixed(1)},${y.toFixed(1)}) rotate(${flipped ? 180 : 0}) scale(${s.toFixed(4)})">${suitSymbol(suit, fill, curvedDiamond)}</g>`;
}
