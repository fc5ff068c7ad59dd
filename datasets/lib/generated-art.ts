/**
 * Procedural SVG art for classes the shared data lacks: card-back designs (to train and test
 * back enrolment on many designs) and "other" textures (table cloths, wood, skin, clutter) for
 * the reject class. Seeded, so design `gen-17` is always the same picture.
 */
import { makeRng, randInt, uniform, type Rng } from './rng';

function colour(rng: Rng): string {
  const h = randInt(rng, 360);
  const s = randInt(rng, 70) + 30;
  const l = randInt(rng, 50) + 20;
  return `hsl(${h},${s}%,${l}%)`;
}

/** An SVG card back (portrait, 630x880 user units) for design number `seed`. */
export function generatedBackSvg(seed: number): string {
  const rng = makeRng(seed * 7919 + 13);
  const bg = colour(rng);
  const fg = rng() < 0.5 ? '#ffffff' : colour(rng);
  const kind = randInt(rng, 5);
  const step = uniform(rng, 30, 90);
  const stroke = uniform(rng, 4, 16);
  let pattern = '';
  if (kind === 0) {
    pattern = `<path d="M0 0 L${step} ${step}" stroke="${fg}" stroke-width="${stroke}"/><path d="M${step} 0 L0 ${step}" stroke="${fg}" stroke-width="${stroke}"/>`;
  } else if (kind === 1) {
    pattern = `<rect width="${step / 2}" height="${step / 2}" fill="${fg}"/><rect x="${step / 2}" y="${step / 2}" width="${step / 2}" height="${step / 2}" fill="${fg}"/>`;
  } else if (kind === 2) {
    pattern = `<circle cx="${step / 2}" cy="${step / 2}" r="${step / 4}" fill="${fg}"/>`;
  } else if (kind === 3) {
    pattern = `<path d="M${step / 2} 0 L${step} ${step / 2} L${step / 2} ${step} L0 ${step / 2} Z" fill="none" stroke="${fg}" stroke-width="${stroke}"/>`;
  } else {
    pattern = `<rect width="${step}" height="${stroke}" fill="${fg}"/>`;
  }
  const rotate = randInt(rng, 4) * 45;
  const border = rng() < 0.7;
  const inner = border ? 40 : 0;
  const emblem =
    rng() < 0.5
      ? `<circle cx="315" cy="440" r="${uniform(rng, 60, 160)}" fill="${colour(rng)}" stroke="${fg}" stroke-width="10"/>`
      : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="630" height="880" viewBox="0 0 630 880">
<defs><pattern id="p" width="${step}" height="${step}" patternUnits="userSpaceOnUse" patternTransform="rotate(${rotate})">${pattern}</pattern></defs>
<rect width="630" height="880" rx="30" fill="#fafafa"/>
<rect x="${inner}" y="${inner}" width="${630 - 2 * inner}" height="${880 - 2 * inner}" rx="20" fill="${bg}"/>
<rect x="${inner}" y="${inner}" width="${630 - 2 * inner}" height="${880 - 2 * inner}" rx="20" fill="url(#p)"/>
${emblem}
</svg>`;
}

/** An SVG "not a card" texture (portrait, same size) for the reject class, number `seed`. */
export function generatedOtherSvg(seed: number): string {
  const rng = makeRng(seed * 104729 + 7);
  const kind = randInt(rng, 4);
  const base = colour(rng);
  if (kind === 0) {
    // Wood-like grain.
    const lines = Array.from({ length: 30 }, (_, i) => {
      const y = i * 30 + uniform(rng, -10, 10);
      return `<path d="M0 ${y} Q315 ${y + uniform(rng, -60, 60)} 630 ${y}" stroke="${colour(rng)}" stroke-opacity="0.4" stroke-width="${uniform(rng, 3, 14)}" fill="none"/>`;
    }).join('');
    return `<svg xmlns="http://www.w3.org/2000/svg" width="630" height="880"><rect width="630" height="880" fill="${base}"/>${lines}</svg>`;
  }
  if (kind === 1) {
    // Skin / sleeve: a smooth blob over a cloth.
    const skin = `hsl(${randInt(rng, 30) + 10},${randInt(rng, 40) + 30}%,${randInt(rng, 50) + 25}%)`;
    return `<svg xmlns="http://www.w3.org/2000/svg" width="630" height="880"><rect width="630" height="880" fill="${base}"/><ellipse cx="${uniform(rng, 100, 530)}" cy="${uniform(rng, 100, 780)}" rx="${uniform(rng, 200, 400)}" ry="${uniform(rng, 150, 500)}" fill="${skin}"/></svg>`;
  }
  if (kind === 2) {
    // Clutter: random shapes.
    const shapes = Array.from({ length: 25 }, () => `<rect x="${uniform(rng, -100, 600)}" y="${uniform(rng, -100, 850)}" width="${uniform(rng, 30, 250)}" height="${uniform(rng, 30, 250)}" fill="${colour(rng)}" transform="rotate(${uniform(rng, 0, 90)} 315 440)"/>`).join('');
    return `<svg xmlns="http://www.w3.org/2000/svg" width="630" height="880"><rect width="630" height="880" fill="${base}"/>${shapes}</svg>`;
  }
  // Plain cloth with a gradient.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="630" height="880"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${base}"/><stop offset="1" stop-color="${colour(rng)}"/></linearGradient></defs><rect width="630" height="880" fill="url(#g)"/></svg>`;
}
