// Builders for hand-made tables in rule tests: a tableau is described by card codes, bottom..top.
import type { CardCode } from '../../server/game/cards';
import { type PlayerTableau, type TableCard, type TableModel, dealTable } from '../../server/game/table';
import { type PresetName, resolveVariant, type VariantKnobs } from '../../server/game/variants';

export function card(code: CardCode, owner = 'ann', deckId = `${owner}-deck`): TableCard {
  return { code, deckId, owner };
}

export interface TableauSpec {
  nerts?: CardCode[];
  work?: CardCode[][];
  stock?: CardCode[];
  waste?: CardCode[];
}

/** A table with the given tableaux (cards not listed are simply absent) and no foundations. */
export function tableWith(spec: Record<string, TableauSpec>, variant: PresetName | VariantKnobs = 'nertz'): TableModel {
  const ids = Object.keys(spec);
  const base = dealTable({
    players: ids.map((id) => ({ id, deckId: `${id}-deck`, backDesign: `${id}-back` })),
    variant: resolveVariant(variant),
    seed: 1,
  });
  for (const id of ids) {
    const s = spec[id];
    const to = (codes: CardCode[] | undefined): TableCard[] => (codes ?? []).map((code) => card(code, id));
    const tableau: PlayerTableau = {
      ...base.players[id],
      nertsPile: to(s.nerts),
      workPiles: [0, 1, 2, 3].map((i) => to(s.work?.[i])),
      stock: to(s.stock),
      waste: to(s.waste),
    };
    base.players[id] = tableau;
  }
  return base;
}
