import { shortDigest } from '../../controllersQuery';
import { AttentionBadge, DataTable, Empty, PhaseBadge, RelTime } from '../../components/common';
import { fixMessage } from '../../attention';
import { useNow } from '../../live';
import type { ControllerDetail } from '../../types';

function Field({ label, children }: { label: string; children: preact.ComponentChildren }) {
  return (
    <div class="field-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Digest({ value }: { value: string | undefined | null }) {
  if (!value) return <span class="muted">—</span>;
  return (
    <code class="digest" title={value}>
      {value.startsWith('sha256:') ? 'sha256:' + shortDigest(value) : value}
    </code>
  );
}

export function OverviewTab({ detail }: { detail: ControllerDetail }) {
  const now = useNow();
  const status = detail.status ?? {};
  const mite = status.miteStatus;
  const apply = status.lastApplyResult;
  const conditions = detail.conditions ?? [];
  const fix = detail.attention ? fixMessage(detail, detail) : '';
  return (
    <div class="overview-tab">
      {detail.attention ? (
        <div class={`attention-panel attention-${detail.attention.toLowerCase().replace(/[^a-z]+/g, '-')}`} role="note">
          <AttentionBadge attention={detail.attention} /> <span>{fix || 'See the conditions below.'}</span>
        </div>
      ) : null}
      {detail.resolutionProblem ? (
        <div class="warning" role="note">
          <strong>Settings could not be resolved:</strong> {detail.resolutionProblem}
        </div>
      ) : null}
      <div class="cards">
        <section class="card" aria-labelledby="h-summary">
          <h2 id="h-summary">Summary</h2>
          <dl>
            <Field label="Phase">
              <PhaseBadge phase={detail.phase} />
            </Field>
            <Field label="Attention">
              <AttentionBadge attention={detail.attention} />
            </Field>
            <Field label="Cluster">{detail.cluster}</Field>
            <Field label="Namespace">{detail.namespace}</Field>
            <Field label="Bundle">{detail.bundle || <span class="muted">—</span>}</Field>
            <Field label="Revision">
              <Digest value={detail.revision} />
            </Field>
            {detail.pendingBundleDigest ? (
              <Field label="Pending bundle">
                <Digest value={detail.pendingBundleDigest} />{' '}
                <span class="muted">rendered, not applied yet</span>
              </Field>
            ) : null}
            <Field label="Jenkins">
              {detail.url ? (
                <a href={detail.url} rel="noreferrer" target="_blank">
                  {detail.url}
                </a>
              ) : (
                <span class="muted">no URL yet</span>
              )}
            </Field>
            <Field label="Last reconciled">
              <RelTime value={detail.lastReconciledAt} now={now} empty="never" />
            </Field>
            <Field label="Created">
              <RelTime value={detail.createdAt} now={now} />
            </Field>
            <Field label="Generation">{String(detail.generation ?? '')}</Field>
          </dl>
        </section>
        <section class="card" aria-labelledby="h-apply">
          <h2 id="h-apply">Last apply</h2>
          {apply && apply.appliedAt ? (
            <dl>
              <Field label="Result">
                <span class={apply.succeeded ? 'ok' : 'bad'}>{apply.succeeded ? '✓ applied' : '✗ refused'}</span>
              </Field>
              <Field label="When">
                <RelTime value={apply.appliedAt} now={now} />
              </Field>
              <Field label="Bundle">
                <Digest value={apply.bundleDigest} />
              </Field>
              <Field label="Jenkins said">
                {apply.message ? <pre class="message">{apply.message}</pre> : <span class="muted">no message</span>}
              </Field>
            </dl>
          ) : (
            <Empty>No desired state has been applied to this Jenkins yet.</Empty>
          )}
        </section>
        <section class="card" aria-labelledby="h-mite">
          <h2 id="h-mite">Mite</h2>
          {mite && Object.keys(mite).length ? (
            <dl>
              <Field label="Stream">
                <span class={mite.connected ? 'ok' : 'bad'}>{mite.connected ? '● connected' : '○ not connected'}</span>
              </Field>
              <Field label="Gateway">{mite.gateway || <span class="muted">—</span>}</Field>
              <Field label="Connected">
                <RelTime value={mite.connectedAt} now={now} />
              </Field>
              <Field label="Mite version">{mite.miteVersion || <span class="muted">—</span>}</Field>
              <Field label="Jenkins version">{mite.jenkinsVersion || <span class="muted">—</span>}</Field>
              <Field label="Certificate until">
                <RelTime value={mite.certificateNotAfter} now={now} />
              </Field>
            </dl>
          ) : (
            <Empty>The mite has not registered yet: Jenkins is starting or the sidecar has not connected.</Empty>
          )}
        </section>
      </div>
      <section aria-labelledby="h-conditions">
        <h2 id="h-conditions">Conditions</h2>
        {conditions.length ? (
          <DataTable label="Conditions" class="conditions" columns={['Type', 'Status', 'Reason', 'Message', 'Since']}>
            {conditions.map((condition) => (
              <tr data-condition={condition.type} key={condition.type}>
                <th scope="row">{condition.type}</th>
                <td>
                  <span class={`cond cond-${condition.status.toLowerCase()}`}>{condition.status}</span>
                </td>
                <td>{condition.reason}</td>
                <td class="message-cell">{condition.message}</td>
                <td>
                  <RelTime value={condition.lastTransitionTime} now={now} />
                </td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <Empty>No conditions yet: the operator has not reconciled this controller.</Empty>
        )}
      </section>
    </div>
  );
}
