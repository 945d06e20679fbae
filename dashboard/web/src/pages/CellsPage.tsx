import { useMemo, useState } from 'preact/hooks';
import { getJson } from '../api';
import { loadLevel, loadPercent, scaleCommand, sortPools } from '../cells';
import { ClusterWarnings } from '../components/ClusterWarnings';
import { DataTable, Empty, ErrorNote, LiveIndicator, Loading, PageHeading, PhaseBadge } from '../components/common';
import { usePolling } from '../live';
import { controllerHref } from '../router';
import type { CellPoolBlock, CellPoolList } from '../types';

function Load({ load }: { load: number }) {
  const level = loadLevel(load);
  return (
    <span class={`cell-load load-${level}`} title={level === 'full' ? 'no room for another team' : undefined}>
      {loadPercent(load)}
    </span>
  );
}

/** The command that scales the pool, with the replicas the reader picks; copying it is all the page does. */
function ScaleCommand({ pool }: { pool: CellPoolBlock }) {
  const [replicas, setReplicas] = useState(String(pool.replicas));
  const [copied, setCopied] = useState('');
  const command = scaleCommand(pool, replicas === '' ? 'N' : replicas);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser refused the clipboard: select the command and copy it.');
    }
  };
  const id = `replicas-${pool.cluster}-${pool.namespace}-${pool.name}`;
  return (
    <div class="scale-command">
      <label for={id}>Replicas</label>{' '}
      <input
        id={id}
        type="number"
        min={0}
        max={500}
        value={replicas}
        onInput={(event) => setReplicas((event.target as HTMLInputElement).value.replace(/[^0-9]/g, ''))}
      />
      <pre class="command">
        <code data-scale-command>{command}</code>
      </pre>
      <div class="button-row">
        <button type="button" class="button" onClick={copy}>
          Copy command
        </button>
        {copied ? <span class="muted">{copied}</span> : null}
      </div>
    </div>
  );
}

function PoolBlock({ pool }: { pool: CellPoolBlock }) {
  const key = `${pool.cluster}/${pool.namespace}/${pool.name}`;
  const heading = `h-pool-${pool.cluster}-${pool.namespace}-${pool.name}`;
  return (
    <section class="card cell-pool" data-pool={key} aria-labelledby={heading}>
      <h2 id={heading}>
        {pool.name}
        <span class="muted">
          {' '}
          {pool.cluster} / {pool.namespace}
        </span>
      </h2>
      <p class="count">
        {pool.ready} of {pool.replicas} cell{pool.replicas === 1 ? '' : 's'} ready · {pool.teams} team
        {pool.teams === 1 ? '' : 's'} hosted, {pool.teamsPerCell} per cell at most · load <Load load={pool.load} />
      </p>
      {pool.cells.length > 0 ? (
        <DataTable label={`Cells of ${pool.name} in ${pool.cluster}`} class="cells" columns={['Cell', 'Phase', 'Teams', 'Load']}>
          {pool.cells.map((cell) => (
            <tr key={cell.name} data-cell={cell.name}>
              <td class="name">
                <a href={controllerHref(pool.cluster, pool.namespace, cell.name)}>{cell.name}</a>
                {cell.draining ? <div class="warn">draining: its teams move to other cells</div> : null}
              </td>
              <td>{cell.phase ? <PhaseBadge phase={cell.phase} /> : <span class="muted">—</span>}</td>
              <td class="cell-teams">
                {cell.teams.length === 0 ? <span class="muted">none</span> : cell.teams.join(', ')}
              </td>
              <td>
                <Load load={cell.load} /> <span class="muted">({cell.teams.length}/{pool.teamsPerCell})</span>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <Empty>No cell yet: the pool's operator has not written its status.</Empty>
      )}
      {pool.unplacedTeams.length > 0 ? (
        <p class="warning" data-unplaced>
          Waiting for room (every cell is full): {pool.unplacedTeams.join(', ')}. Scale the pool to place them.
        </p>
      ) : null}
      <ScaleCommand pool={pool} />
    </section>
  );
}

/** A block per CellPool per cluster: cells, phase, hosted teams, load, and the command that scales it. Read-only. */
export function CellsPage() {
  const polled = usePolling(() => getJson<CellPoolList>('/cells'), 'cells');
  const list = polled.data;
  const pools = useMemo(() => sortPools(list?.pools ?? []), [list]);
  return (
    <>
      <PageHeading title="Cells">
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      {list ? <ClusterWarnings statuses={list.clusters ?? []} what="cell pools" /> : null}
      {polled.error && !list ? <ErrorNote what="the cell pools" error={polled.error} /> : null}
      {!list && !polled.error ? <Loading what="cell pools from every cluster" /> : null}
      {list ? (
        <>
          <p class="count">
            {pools.length} pool{pools.length === 1 ? '' : 's'}. The dashboard changes nothing: copy a pool's command to
            scale it.
          </p>
          {pools.length > 0 ? (
            <div class="cards cell-pools">
              {pools.map((pool) => (
                <PoolBlock pool={pool} key={`${pool.cluster}/${pool.namespace}/${pool.name}`} />
              ))}
            </div>
          ) : (
            <Empty>No CellPool in the clusters that answered, or your VarroaRoleBindings let you see none.</Empty>
          )}
        </>
      ) : null}
    </>
  );
}
