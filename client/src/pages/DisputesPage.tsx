/**
 * Dispute review: for each race for a foundation slot, the evidence frames side by side, who
 * played what, the ruling (first to land stays), and a referee overrule.
 */
import { useMemo } from 'react';
import type { CardCode } from '../../../server/game/cards';
import type { TableView } from '../../../server/protocol';
import { Card } from '../components/Card';
import { PlayerChip } from '../components/PlayerChip';
import { RefereeTokenForm } from '../components/RefereeTokenForm';
import { api, tableResourceUrl } from '../lib/api';
import { cardName, cardShort } from '../lib/cardNames';
import { playerNames } from '../lib/format';
import { tokenFor } from '../lib/tokens';
import { useTable } from '../lib/useLiveTable';
import { useRefereeAction } from '../lib/useRefereeAction';

type Dispute = TableView['disputes'][number];

/** The dispute review page. */
export function DisputesPage() {
  const { live, tokens } = useTable();
  const { view, table } = live;
  const names = useMemo(() => playerNames(table, view), [table, view]);
  if (!view) return <main className="page"><p className="muted" role="status">Waiting for the table…</p></main>;
  const isReferee = Boolean(tokenFor(tokens, 'referee'));
  const disputes = [...view.disputes].sort((a, b) => Number(a.winner !== null) - Number(b.winner !== null));
  return (
    <main className="page stack" data-testid="disputes">
      <h1>Disputes · hand {view.hand || '–'}</h1>
      <p className="muted">When two cards race for the same slot, the first to land stays and the other goes back. Check the frames and overrule if the camera got it wrong.</p>
      {!isReferee && <RefereeTokenForm />}
      {disputes.length === 0 && <p className="panel muted">No disputes this hand.</p>}
      {disputes.map((dispute) => (
        <DisputeCard key={dispute.id} dispute={dispute} names={names} view={view} isReferee={isReferee} />
      ))}
    </main>
  );
}

function DisputeCard({ dispute, names, view, isReferee }: { dispute: Dispute; names: Map<string, string>; view: TableView; isReferee: boolean }) {
  const { tableId, tokens } = useTable();
  const { busy, error, run } = useRefereeAction();
  const seatOf = (id: string): number => view.players.find((player) => player.id === id)?.seat ?? 0;
  const name = (id: string): string => names.get(id) ?? id;
  const viewToken = tokenFor(tokens, 'view');
  const sides = [
    { label: 'Landed first', ...dispute.first },
    { label: 'Landed second', ...dispute.second },
  ];
  return (
    <article className="panel stack" aria-labelledby={`dispute-${dispute.id}`} data-dispute={dispute.id}>
      <div className="row row--between">
        <h2 id={`dispute-${dispute.id}`} style={{ margin: 0 }}>Pile {dispute.foundationId}</h2>
        {dispute.winner ? (
          <span className="pill pill--ok">Ruled for {name(dispute.winner)}{dispute.by === 'referee' ? ' by the referee' : ' (first to land)'}</span>
        ) : (
          <span className="pill pill--warn">Open</span>
        )}
      </div>
      <div className="row" style={{ gap: '1.5rem' }}>
        {sides.map((side) => (
          <div key={side.label} className="row">
            <Card code={side.card as CardCode} size="md" />
            <div className="stack" style={{ gap: 0 }}>
              <span className="small muted">{side.label}</span>
              <PlayerChip name={name(side.player)} seat={seatOf(side.player)} />
              <span className="small">{cardName(side.card as CardCode)}</span>
            </div>
          </div>
        ))}
      </div>
      {dispute.evidence.length > 0 ? (
        <div className="evidence">
          {dispute.evidence.map((evidenceId, index) => (
            <figure key={evidenceId}>
              <img src={tableResourceUrl(tableId, `evidence/${encodeURIComponent(evidenceId)}`, viewToken)} alt={`Evidence frame ${index + 1} of ${dispute.evidence.length}`} loading="lazy" />
              <figcaption>Frame {index + 1} of {dispute.evidence.length}</figcaption>
            </figure>
          ))}
        </div>
      ) : (
        <p className="small muted">No evidence frames were kept.</p>
      )}
      {isReferee && (
        <div className="row">
          <span>Overrule: the card that stays is</span>
          {[dispute.first, dispute.second].map((side) => (
            <button key={side.player + side.card} type="button" disabled={busy || dispute.winner === side.player}
              onClick={() => run(() => api.overrule(tableId, tokenFor(tokens, 'referee'), dispute.id, side.player))}>
              {name(side.player)}’s {cardShort(side.card as CardCode)}
            </button>
          ))}
        </div>
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </article>
  );
}
