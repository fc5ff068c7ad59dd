/**
 * The editable part of a table setup: name, player count, seats (player, team, handicap pile
 * size) and rules (variant preset, target, knobs). Shared by the create form on the Tables page
 * and the edit form on the Setup page; validation lives in lib/setupForm.
 */
import { PRESETS, PRESET_NAMES } from '../../../server/game/variants';
import { defaultDraft, MAX_SEATS, MIN_SEATS, type SetupDraft } from '../lib/setupForm';
import { seatColour } from '../lib/format';

/** Fields bound to `draft`; `onChange` gets the next draft (functional update). */
export function SetupFields({ draft, onChange }: { draft: SetupDraft; onChange: (next: (current: SetupDraft) => SetupDraft) => void }) {
  const setDraft = onChange;
  const preset = PRESETS[draft.variant as keyof typeof PRESETS];

  const update = (patch: Partial<SetupDraft>): void => setDraft((current) => ({ ...current, ...patch }));
  const updateSeat = (index: number, patch: Partial<SetupDraft['seats'][number]>): void =>
    setDraft((current) => ({ ...current, seats: current.seats.map((seat, i) => (i === index ? { ...seat, ...patch } : seat)) }));
  const setSeatCount = (count: number): void =>
    setDraft((current) => {
      const fresh = defaultDraft(MAX_SEATS).seats;
      const seats = Array.from({ length: count }, (_, i) => current.seats[i] ?? fresh[i]);
      return { ...current, seats };
    });

  return (
    <>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="table-name">Table name</label>
          <input id="table-name" value={draft.name} onChange={(e) => update({ name: e.target.value })} required maxLength={80} />
        </div>
        <div className="field">
          <label htmlFor="seat-count">Players</label>
          <select id="seat-count" value={draft.seats.length} onChange={(e) => setSeatCount(Number(e.target.value))}>
            {Array.from({ length: MAX_SEATS - MIN_SEATS + 1 }, (_, i) => MIN_SEATS + i).map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>
        </div>
      </div>
      <fieldset>
        <legend>Seats</legend>
        <p className="small muted" style={{ marginTop: 0 }}>Clockwise from the camera’s bottom edge. Partners share a team name.</p>
        <div className="stack">
          {draft.seats.map((seat, index) => (
            <div key={index} className="form-grid" style={{ gridTemplateColumns: 'minmax(120px,2fr) minmax(90px,1fr) minmax(90px,1fr)' }}>
              <div className="field">
                <label htmlFor={`seat-${index}-name`}>
                  <span className="player__swatch" style={{ background: seatColour(index), marginRight: 4 }} aria-hidden="true" />
                  Seat {index + 1} player
                </label>
                <input id={`seat-${index}-name`} value={seat.name} onChange={(e) => updateSeat(index, { name: e.target.value })} maxLength={60} />
              </div>
              <div className="field">
                <label htmlFor={`seat-${index}-team`}>Team <span className="hint">optional</span></label>
                <input id={`seat-${index}-team`} value={seat.team} onChange={(e) => updateSeat(index, { team: e.target.value })} maxLength={40} />
              </div>
              <div className="field">
                <label htmlFor={`seat-${index}-pile`}>Pile size <span className="hint">handicap</span></label>
                <input id={`seat-${index}-pile`} inputMode="numeric" value={seat.nertsPileSize} placeholder={String(preset?.nertsPileSize ?? 13)}
                  onChange={(e) => updateSeat(index, { nertsPileSize: e.target.value })} />
              </div>
            </div>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Rules</legend>
        <div className="form-grid">
          <div className="field">
            <label htmlFor="variant">Variant preset</label>
            <select id="variant" value={draft.variant} onChange={(e) => update({ variant: e.target.value })}>
              {PRESET_NAMES.map((name) => (
                <option key={name} value={name}>{name}</option>
              ))}
            </select>
          </div>
          <NumberField id="target" label="Target score" value={draft.target} placeholder={String(preset?.scoring.target ?? 100)} onChange={(value) => update({ target: value })} />
          <NumberField id="knob-penalty" label="Penalty per Nerts card" value={draft.nertsPenalty} placeholder={String(preset?.scoring.nertsPenalty ?? 2)} onChange={(value) => update({ nertsPenalty: value })} />
          <NumberField id="knob-bonus" label="Call bonus" value={draft.callBonus} placeholder={String(preset?.scoring.callBonus ?? 0)} onChange={(value) => update({ callBonus: value })} />
          <NumberField id="knob-pile" label="Nerts pile size" value={draft.nertsPileSize} placeholder={String(preset?.nertsPileSize ?? 13)} onChange={(value) => update({ nertsPileSize: value })} />
          <NumberField id="knob-cap" label="Hand cap" value={draft.handCap} placeholder={preset?.scoring.handCap == null ? 'none' : String(preset.scoring.handCap)} onChange={(value) => update({ handCap: value })} />
        </div>
      </fieldset>
    </>
  );
}

/** A labelled numeric text field; the placeholder shows what an empty field means (the preset's value). */
function NumberField({ id, label, value, placeholder, onChange }: { id: string; label: string; value: string; placeholder: string; onChange: (value: string) => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} inputMode="numeric" value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
