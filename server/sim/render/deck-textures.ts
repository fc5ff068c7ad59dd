/**
 * Process-wide cache of rasterised card art, keyed by style and card, so several renderers (and
 * dataset sessions) share the work. Bounded: the oldest styles are dropped past a limit.
 */
import type { CardCode } from '../../game/cards';
import type { BackDesign, FaceStyle } from '../art/decks';
import { rasteriseCardArt, type CardTexture } from '../art/texture';

/**
 * Limits, kept apart: a face style holds 52 textures and a back design one, and each deck in play
 * needs both. With one limit for both (16 styles), four 3-player tables (12 decks: 24 styles)
 * rasterised art again nearly every frame, evicting each other's.
 */
const MAX_CACHED_FACE_STYLES = 16;
const MAX_CACHED_BACKS = 64;
const faces = new Map<string, Map<string, Promise<CardTexture>>>();
const backs = new Map<string, Map<string, Promise<CardTexture>>>();

function styleCache(cache: Map<string, Map<string, Promise<CardTexture>>>, limit: number, key: string): Map<string, Promise<CardTexture>> {
  let entry = cache.get(key);
  if (entry) {
    // Refresh recency.
    cache.delete(key);
    cache.set(key, entry);
    return entry;
  }
  entry = new Map();
  cache.set(key, entry);
  while (cache.size > limit) cache.delete(cache.keys().next().value as string);
  return entry;
}

/** Texture of one face of a style (rasterised on first use). Style names must be unique per art source. */
export function faceTexture(style: FaceStyle, code: CardCode): Promise<CardTexture> {
  const entry = styleCache(faces, MAX_CACHED_FACE_STYLES, style.name);
  let texture = entry.get(code);
  if (!texture) {
    texture = style.loadFace(code).then((bytes) => rasteriseCardArt(bytes, `${style.name}/${code}`));
    texture.catch(() => entry.delete(code));
    entry.set(code, texture);
  }
  return texture;
}

/** Texture of a back design (rasterised on first use). */
export function backTexture(design: BackDesign): Promise<CardTexture> {
  const entry = styleCache(backs, MAX_CACHED_BACKS, design.name);
  let texture = entry.get('back');
  if (!texture) {
    texture = design.load().then((bytes) => rasteriseCardArt(bytes, design.name));
    texture.catch(() => entry.delete('back'));
    entry.set('back', texture);
  }
  return texture;
}
