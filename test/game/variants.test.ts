import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, PRESETS, resolveVariant, tryResolveVariant } from '../../server/game/variants';

describe('variants', () => {
  it('[P8] every preset resolves and a full rules object round-trips', () => {
    for (const name of PRESET_NAMES) {
      const rules = resolveVariant(name);
      expect(rules.name).toBe(name);
      expect(resolveVariant(rules)).toEqual(rules);
    }
    expect(PRESET_NAMES).toEqual(expect.arrayContaining(['snerts', 'nertz', 'house-150', 'gnerts', 'nuts', 'tournament']));
  });

  it('[P8] knobs start from a preset (default nertz) and may sit at the top level or under scoring', () => {
    const a = resolveVariant({ preset: 'snerts', target: 50, nertsPileSize: 10 });
    expect(a.scoring.target).toBe(50);
    expect(a.nertsPileSize).toBe(10);
    expect(a.slideUnder).toBe(true);
    expect(a.name).toBe('custom');
    const b = resolveVariant({ scoring: { callBonus: 10 } });
    expect(b.scoring.callBonus).toBe(10);
    expect(b.scoring.nertsPenalty).toBe(2);
    // Presets are not modified by resolving.
    expect(PRESETS.nertz.scoring.callBonus).toBe(0);
  });

  it('[P8] bad knobs give a readable error, never a throw from tryResolveVariant', () => {
    expect(tryResolveVariant('poker')).toEqual({ ok: false, error: expect.stringMatching(/unknown variant "poker"/) });
    expect(tryResolveVariant({ penalty: 2 })).toEqual({ ok: false, error: expect.stringMatching(/unknown variant knob "penalty"/) });
    expect(tryResolveVariant({ target: 'lots' })).toEqual({ ok: false, error: 'target must be a number' });
    expect(tryResolveVariant({ nertsPileSize: 0 })).toMatchObject({ ok: false });
    expect(tryResolveVariant({ winRule: 'coin-toss' })).toMatchObject({ ok: false });
    expect(tryResolveVariant(42)).toMatchObject({ ok: false });
    expect(() => resolveVariant({ handCap: -1 })).toThrow(/handCap/);
  });

  it('[C2] the nertz preset stops play even mid-move; the others let cards in the air land', () => {
    expect(resolveVariant('nertz').callGraceMs).toBe(0);
    expect(resolveVariant('snerts').callGraceMs).toBeGreaterThan(0);
  });

  it('[S3] G\'NERTS allows three stuck rotations', () => {
    expect(resolveVariant('gnerts').stuckRotationLimit).toBe(3);
    expect(resolveVariant('nertz').stuckRotationLimit).toBeNull();
  });
});
