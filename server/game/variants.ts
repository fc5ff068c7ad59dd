/**
 * Variant presets and knobs. Each preset cites the rule text it comes from
 * (files in ../shared/rules-sources/, see RULES.md). A variant is plain JSON data.
 */

/** How the winner of a match is decided once someone reaches the target. */
export type WinRule =
  /** pagat (000): the caller reaching the target wins; otherwise the highest total among all. */
  | 'caller-at-target'
  /** 001/002/003: the highest total wins once anyone reaches the target (ties play on). */
  | 'highest-at-target'
  /** 004: play continues until someone strictly exceeds the target; then the highest wins. */
  | 'highest-past-target';

/** Scoring and match knobs. Points are game points. */
export interface ScoringRules {
  /** Points per own card in the centre (+1 in every source). */
  perCentreCard: number;
  /** Points subtracted per card left in the Nerts pile (1 pagat, 2 elsewhere). */
  nertsPenalty: number;
  /** pagat: the caller subtracts nothing for the Nerts pile (it is empty anyway unless corrected). */
  callerExemptFromPenalty: boolean;
  /** Bonus for the caller (002: +10; 001: optional +10, off by default). */
  callBonus: number;
  /** Match target score. */
  target: number;
  /** Hand cap: after this many hands the highest total wins (001: 20). null = no cap. */
  handCap: number | null;
  winRule: WinRule;
}

/** Every rule knob the table model, the referee and scoring read. */
export interface VariantRules {
  /** Preset name this was built from (or 'custom'). */
  name: string;
  /** Cards dealt to each Nerts pile (13; 10 as a variant). A per-player handicap overrides it. */
  nertsPileSize: number;
  /** Who may fill an empty work pile: 'nerts' = only the Nerts top card (000, 003); 'any' = any available card (001, 004). */
  emptySpaceFill: 'nerts' | 'any';
  /** 000: Nerts cards go only to empty spaces or foundations (not onto work piles). */
  nertsOnlyToEmptyOrFoundation: boolean;
  /** 000: with an empty work pile, a card one higher and opposite colour may slide under a pile's base. */
  slideUnder: boolean;
  /** 003 (G'NERTS): after this many stuck rotations, the next standstill ends the round. null = unlimited. */
  stuckRotationLimit: number | null;
  /** 000 tournament rules: tables of four, to 100, the table winner records 100. */
  tournament: boolean;
  /** Referee: a play landing on a just-filled slot within this many ms is a race (a dispute), not a violation. */
  disputeWindowMs: number;
  /** Referee: plays landing up to this many ms after the call still count (moves in the air complete). */
  callGraceMs: number;
  scoring: ScoringRules;
}

/** A partial variant: any knob may be given; `scoring` may be partial too, and scoring knobs may also sit at the top level. */
export type VariantKnobs = Partial<Omit<VariantRules, 'scoring'>> & Partial<ScoringRules> & { preset?: PresetName; scoring?: Partial<ScoringRules> };

const BASE: Omit<VariantRules, 'name' | 'scoring'> = {
  nertsPileSize: 13,
  emptySpaceFill: 'any',
  nertsOnlyToEmptyOrFoundation: false,
  slideUnder: false,
  stuckRotationLimit: null,
  tournament: false,
  disputeWindowMs: 1000,
  callGraceMs: 1000,
};

/** The named presets. */
export const PRESETS = {
  /** 000 (pagat "Snerts"): +1 / −1, caller exempt, Nerts cards only to spaces or foundations, slide-under. */
  snerts: {
    ...BASE,
    name: 'snerts',
    emptySpaceFill: 'nerts',
    nertsOnlyToEmptyOrFoundation: true,
    slideUnder: true,
    scoring: { perCentreCard: 1, nertsPenalty: 1, callerExemptFromPenalty: true, callBonus: 0, target: 100, handCap: null, winRule: 'caller-at-target' },
  },
  /** 001 ("Nertz" guide): +1 / −2, optional +10 (off), target 100, cap 20 hands. */
  nertz: {
    ...BASE,
    name: 'nertz',
    // 001: "all play stops immediately ... even mid-move": no grace for cards in the air.
    callGraceMs: 0,
    scoring: { perCentreCard: 1, nertsPenalty: 2, callerExemptFromPenalty: false, callBonus: 0, target: 100, handCap: 20, winRule: 'highest-at-target' },
  },
  /** 002 ("Nerts" short rules): +1 / −2, +10 for the caller, first to 150. */
  'house-150': {
    ...BASE,
    name: 'house-150',
    scoring: { perCentreCard: 1, nertsPenalty: 2, callerExemptFromPenalty: false, callBonus: 10, target: 150, handCap: null, winRule: 'highest-at-target' },
  },
  /** 003 (G'NERTS): −2, spaces filled from the Pile, three stuck rotations then the next standstill ends the round; to 100. */
  gnerts: {
    ...BASE,
    name: 'gnerts',
    emptySpaceFill: 'nerts',
    stuckRotationLimit: 3,
    scoring: { perCentreCard: 1, nertsPenalty: 2, callerExemptFromPenalty: false, callBonus: 0, target: 100, handCap: null, winRule: 'highest-at-target' },
  },
  /** 004 ("Nuts"): −2, any card fills a space, play until someone exceeds 100. */
  nuts: {
    ...BASE,
    name: 'nuts',
    scoring: { perCentreCard: 1, nertsPenalty: 2, callerExemptFromPenalty: false, callBonus: 0, target: 100, handCap: null, winRule: 'highest-past-target' },
  },
  /** 000 tournament rules on top of snerts: tables of four to 100; the table winner records 100. */
  tournament: {
    ...BASE,
    name: 'tournament',
    emptySpaceFill: 'nerts',
    nertsOnlyToEmptyOrFoundation: true,
    slideUnder: true,
    tournament: true,
    scoring: { perCentreCard: 1, nertsPenalty: 1, callerExemptFromPenalty: true, callBonus: 0, target: 100, handCap: null, winRule: 'caller-at-target' },
  },
} as const satisfies Record<string, VariantRules>;

/** A preset name: 'snerts' | 'nertz' | 'house-150' | 'gnerts' | 'nuts' | 'tournament'. */
export type PresetName = keyof typeof PRESETS;

/** The preset names in a stable order. */
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

/** True when `name` is a preset name. */
export function isPresetName(name: unknown): name is PresetName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(PRESETS, name);
}

/** Result of resolving user input into rules: the rules, or a readable error. */
export type ResolveResult = { ok: true; rules: VariantRules } | { ok: false; error: string };

const WIN_RULES: readonly WinRule[] = ['caller-at-target', 'highest-at-target', 'highest-past-target'];

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Turns a preset name, or an object of knobs (optionally `preset` to start from; default `nertz`),
 * into full VariantRules, validating every knob. Never throws: bad input is an error string.
 */
export function tryResolveVariant(input: unknown): ResolveResult {
  if (typeof input === 'string') {
    if (!isPresetName(input)) return { ok: false, error: `unknown variant "${input}" (presets: ${PRESET_NAMES.join(', ')})` };
    return { ok: true, rules: clonePreset(input) };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: 'variant must be a preset name or an object of knobs' };
  }
  const knobs = input as Record<string, unknown>;
  // Start from `preset`, else from a preset-named `name` (a full VariantRules round-trips), else nertz.
  const presetName = knobs.preset ?? (isPresetName(knobs.name) ? knobs.name : 'nertz');
  if (!isPresetName(presetName)) return { ok: false, error: `unknown preset "${String(presetName)}" (presets: ${PRESET_NAMES.join(', ')})` };
  const rules = clonePreset(presetName);
  if (knobs.name !== undefined && typeof knobs.name !== 'string') return { ok: false, error: 'name must be a string' };
  const onlyPreset = Object.keys(knobs).every((key) => key === 'preset');
  rules.name = typeof knobs.name === 'string' ? knobs.name : onlyPreset ? presetName : 'custom';
  const known = new Set(['preset', 'name', 'nertsPileSize', 'emptySpaceFill', 'nertsOnlyToEmptyOrFoundation', 'slideUnder', 'stuckRotationLimit', 'tournament', 'disputeWindowMs', 'callGraceMs', 'scoring',
    // Scoring knobs are also accepted at the top level for convenience on the command line.
    'perCentreCard', 'nertsPenalty', 'callerExemptFromPenalty', 'callBonus', 'target', 'handCap', 'winRule']);
  for (const key of Object.keys(knobs)) if (!known.has(key)) return { ok: false, error: `unknown variant knob "${key}"` };

  if (knobs.nertsPileSize !== undefined) {
    if (!Number.isInteger(knobs.nertsPileSize) || (knobs.nertsPileSize as number) < 1 || (knobs.nertsPileSize as number) > 47) return { ok: false, error: 'nertsPileSize must be an integer 1–47' };
    rules.nertsPileSize = knobs.nertsPileSize as number;
  }
  if (knobs.emptySpaceFill !== undefined) {
    if (knobs.emptySpaceFill !== 'nerts' && knobs.emptySpaceFill !== 'any') return { ok: false, error: 'emptySpaceFill must be "nerts" or "any"' };
    rules.emptySpaceFill = knobs.emptySpaceFill;
  }
  for (const flag of ['nertsOnlyToEmptyOrFoundation', 'slideUnder', 'tournament'] as const) {
    if (knobs[flag] !== undefined) {
      if (typeof knobs[flag] !== 'boolean') return { ok: false, error: `${flag} must be true or false` };
      rules[flag] = knobs[flag] as boolean;
    }
  }
  if (knobs.stuckRotationLimit !== undefined) {
    const limit = knobs.stuckRotationLimit;
    if (limit !== null && (!Number.isInteger(limit) || (limit as number) < 0)) return { ok: false, error: 'stuckRotationLimit must be a non-negative integer or null' };
    rules.stuckRotationLimit = limit as number | null;
  }
  for (const ms of ['disputeWindowMs', 'callGraceMs'] as const) {
    if (knobs[ms] !== undefined) {
      if (!isFiniteNumber(knobs[ms]) || (knobs[ms] as number) < 0) return { ok: false, error: `${ms} must be a non-negative number of milliseconds` };
      rules[ms] = knobs[ms] as number;
    }
  }
  const scoringInput: Record<string, unknown> = {};
  if (knobs.scoring !== undefined) {
    if (typeof knobs.scoring !== 'object' || knobs.scoring === null || Array.isArray(knobs.scoring)) return { ok: false, error: 'scoring must be an object' };
    Object.assign(scoringInput, knobs.scoring);
  }
  for (const key of ['perCentreCard', 'nertsPenalty', 'callerExemptFromPenalty', 'callBonus', 'target', 'handCap', 'winRule']) {
    if (knobs[key] !== undefined) scoringInput[key] = knobs[key];
  }
  for (const [key, value] of Object.entries(scoringInput)) {
    switch (key) {
      case 'perCentreCard':
      case 'nertsPenalty':
      case 'callBonus':
      case 'target':
        if (!isFiniteNumber(value)) return { ok: false, error: `${key} must be a number` };
        rules.scoring[key] = value;
        break;
      case 'handCap':
        if (value !== null && (!Number.isInteger(value) || (value as number) < 1)) return { ok: false, error: 'handCap must be a positive integer or null' };
        rules.scoring.handCap = value as number | null;
        break;
      case 'callerExemptFromPenalty':
        if (typeof value !== 'boolean') return { ok: false, error: 'callerExemptFromPenalty must be true or false' };
        rules.scoring.callerExemptFromPenalty = value;
        break;
      case 'winRule':
        if (!WIN_RULES.includes(value as WinRule)) return { ok: false, error: `winRule must be one of ${WIN_RULES.join(', ')}` };
        rules.scoring.winRule = value as WinRule;
        break;
      default:
        return { ok: false, error: `unknown scoring knob "${key}"` };
    }
  }
  return { ok: true, rules };
}

/** Like tryResolveVariant, but throws on bad input (for trusted, programmer-written variants). */
export function resolveVariant(input: PresetName | VariantKnobs | VariantRules): VariantRules {
  const result = tryResolveVariant(input);
  if (!result.ok) throw new Error(result.error);
  return result.rules;
}

function clonePreset(name: PresetName): VariantRules {
  const preset: VariantRules = PRESETS[name];
  return { ...preset, scoring: { ...preset.scoring } };
}
