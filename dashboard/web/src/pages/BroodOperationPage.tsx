import type { ComponentChildren } from 'preact';
import { broodOperationPath, getJson } from '../api';
import {
  currentStepLabel,
  elapsedMillis,
  filterTargets,
  operationCommands,
  pausedNote,
  stepResultClass,
  stepTypes,
  targetMessage,
  targetPhaseCounts,
} from '../brood';
import { DataTable, Empty, ErrorNote, LiveIndicator, Loading, PageHeading, PhaseBadge, RelTime } from '../components/common';
import { ProgressBar } from '../components/ProgressBar';
import { useNow, usePolling } from '../live';
import { BASE, broodOperationHref, controllerHref } from '../router';
import { duration } from '../time';
import type { BroodOperationDetail, BroodOperationObject, BroodTargetStatus } from '../types';

interface Props {
  cluster: string;
  namespace: string;
  name: string;
  search: string;
}

function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="field-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function listOrAll(values: string[] | undefined, all: string): string {
  return values && values.length > 0 ? values.join(', ') : all;
}

function selectorText(selector: Record<string, unknown> | undefined): string {
  if (!selector) return '';
  const labels = (selector.matchLabels ?? {}) as Record<string, string>;
  const expressions = (selector.matchExpressions ?? []) as { key: string; operator: string; values?: string[] }[];
  return [
    ...Object.entries(labels).map(([key, value]) => `${key}=${value}`),
    ...expressions.map((e) => `${e.key} ${e.operator}${e.values?.length ? ' (' + e.values.join(', ') + ')' : ''}`),
  ].join(', ');
}

function PlanCard({ operation, cluster }: { operation: BroodOperationObject; cluster: string }) {
  const spec = operation.spec ?? {};
  const targets = spec.targets ?? {};
  const strategy = spec.strategy ?? {};
  const schedule = operation.metadata.labels?.['varroa.dev/brood-schedule'];
  return (
    <section class="card" aria-labelledby="h-plan">
      <h2 id="h-plan">Plan</h2>
      <dl>
        <Field label="Steps">
          <ol class="plan-steps">
            {(spec.steps ?? []).map((step, index) => (
              <li key={index}>
                <code>{step.type}</code>
                {step.timeoutSeconds ? (
                  <span class="muted"> · times out after {duration(step.timeoutSeconds * 1000)}</span>
                ) : null}
                {step.note ? <div class="muted">{step.note}</div> : null}
              </li>
            ))}
          </ol>
        </Field>
        <Field label="Clusters">{listOrAll(targets.clusters, cluster + ' (the one holding it)')}</Field>
        <Field label="Namespaces">{listOrAll(targets.namespaces, 'every namespace')}</Field>
        <Field label="Names">{listOrAll(targets.names, 'every name')}</Field>
        {targets.selector ? <Field label="Labels">{selectorText(targets.selector) || 'any'}</Field> : null}
        {targets.phases?.length ? <Field label="Phases">{targets.phases.join(', ')}</Field> : null}
        <Field label="At once">{strategy.maxConcurrent ?? 1}</Field>
        <Field label="On failure">
          {strategy.failurePolicy ?? 'StopOnFirstFailure'}
          {strategy.failurePolicy === 'StopAfterFailures' && strategy.maxFailures ? ` (${strategy.maxFailures})` : ''}
        </Field>
        <Field label="Step timeout">{duration((strategy.stepTimeoutSeconds ?? 1800) * 1000)}</Field>
        {schedule ? <Field label="Schedule">{schedule}</Field> : null}
      </dl>
    </section>
  );
}

function RunCard({ operation, now }: { operation: BroodOperationObject; now: number }) {
  const status = operation.status ?? {};
  const spec = operation.spec ?? {};
  return (
    <section class="card" aria-labelledby="h-run">
      <h2 id="h-run">Run</h2>
      <dl>
        <Field label="Phase">
          <PhaseBadge phase={status.phase || 'Pending'} />
          {spec.suspend && status.phase !== 'Paused' ? <span class="tag">pause requested</span> : null}
          {spec.cancel && status.phase !== 'Cancelled' ? <span class="tag">cancel requested</span> : null}
        </Field>
        {status.message ? (
          <Field label="Message">
            <span class="message-text">{status.message}</span>
          </Field>
        ) : null}
        <Field label="Progress">
          <ProgressBar counts={status.counts} label="Targets" />
        </Field>
        <Field label="Started">
          <RelTime value={status.startedAt} now={now} empty="not yet" />
        </Field>
        <Field label="Completed">
          <RelTime value={status.completedAt} now={now} />
        </Field>
        <Field label="Created">
          <RelTime value={operation.metadata.creationTimestamp} now={now} />
        </Field>
      </dl>
    </section>
  );
}

function StepResults({ target, now }: { target: BroodTargetStatus; now: number }) {
  const results = target.steps ?? [];
  if (results.length === 0) return <span class="muted">none started</span>;
  return (
    <ol class="step-results">
      {results.map((result, index) => {
        const took = elapsedMillis(result, now);
        return (
          <li key={index} class={stepResultClass(result)} data-step={result.type}>
            <span class="step-type">{result.type}</span> <span class="step-phase">{result.phase || 'Pending'}</span>
            {result.startedAt ? (
              <span class="muted">
                {' '}
                · <RelTime value={result.startedAt} now={now} />
                {took !== null ? ` · ${duration(took)}${result.completedAt ? '' : ' so far'}` : ''}
              </span>
            ) : null}
            {result.message ? (
              <div class={result.phase === 'Failed' ? 'step-message bad' : 'step-message muted'}>{result.message}</div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

interface TargetRowProps {
  target: BroodTargetStatus;
  operation: BroodOperationObject;
  types: string[];
  now: number;
}

function TargetRow({ target, operation, types, now }: TargetRowProps) {
  const note = pausedNote(target, operation);
  const message = targetMessage(target);
  const id = `${target.cluster}/${target.namespace}/${target.name}`;
  return (
    <tr data-target={id}>
      <td class="name">
        <a href={controllerHref(target.cluster ?? '', target.namespace ?? '', target.name ?? '')}>{target.name}</a>
        <div class="muted">
          {target.cluster} / {target.namespace}
        </div>
      </td>
      <td>
        <PhaseBadge phase={target.phase || 'Pending'} />
        {target.phase === 'Unknown' ? <div class="muted">its cluster does not answer</div> : null}
      </td>
      <td class="current-step">{currentStepLabel(target, types) || <span class="muted">—</span>}</td>
      <td class="step-results-cell">
        {note ? (
          <div class="paused-note" role="note">
            {note}
          </div>
        ) : null}
        <StepResults target={target} now={now} />
        {message ? <div class={target.phase === 'Failed' ? 'bad' : 'muted'}>{message}</div> : null}
      </td>
      <td>
        <RelTime value={target.startedAt} now={now} empty="not yet" />
        {target.completedAt ? (
          <div class="muted">
            ended <RelTime value={target.completedAt} now={now} />
          </div>
        ) : null}
      </td>
      <td>
        <RelTime value={target.reportedAt} now={now} />
      </td>
    </tr>
  );
}

/** One BroodOperation: its plan, its run, and every target with its steps, read again every 5 s. */
export function BroodOperationPage({ cluster, namespace, name, search }: Props) {
  const phase = new URLSearchParams(search).get('phase') ?? '';
  const key = `${cluster}/${namespace}/${name}`;
  const polled = usePolling(() => getJson<BroodOperationDetail>(broodOperationPath(cluster, namespace, name)), key);
  const now = useNow();
  const operation = polled.data?.operation;
  const status = operation?.status ?? {};
  const targets = status.targets ?? [];
  const shown = filterTargets(targets, phase);
  const types = operation ? stepTypes(operation) : [];
  const commands = operation ? operationCommands(cluster, namespace, name, operation) : [];

  return (
    <>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <a href={`${BASE}/broodoperations`}>Brood operations</a> <span aria-hidden="true">/</span>{' '}
        <a href={`${BASE}/broodoperations?cluster=${encodeURIComponent(cluster)}`}>{cluster}</a>{' '}
        <span aria-hidden="true">/</span> {namespace}
      </nav>
      <PageHeading title={name}>
        {operation ? (
          <>
            <PhaseBadge phase={status.phase || 'Pending'} />
            {status.dryRun || operation.spec?.dryRun ? <span class="tag">dry run</span> : null}
          </>
        ) : null}
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      {polled.error && !operation ? (
        <ErrorNote what={`brood operation ${namespace}/${name} in cluster ${cluster}`} error={polled.error} />
      ) : null}
      {!operation && !polled.error ? <Loading what={`brood operation ${namespace}/${name} from cluster ${cluster}`} /> : null}
      {operation ? (
        <>
          {status.dryRun || operation.spec?.dryRun ? (
            <div class="info-note" role="note">
              A dry run: the targets below were resolved and the plan listed; nothing was touched.
            </div>
          ) : null}
          {(status.unresolvedClusters ?? []).map((problem) => (
            <div role="alert" class="warning" data-unresolved-cluster={problem.cluster} key={problem.cluster}>
              <strong>Cluster {problem.cluster}:</strong> {problem.reason || 'the selection could not be resolved'}. Its
              controllers are not among the targets.
            </div>
          ))}
          <div class="cards brood-cards">
            <RunCard operation={operation} now={now} />
            <PlanCard operation={operation} cluster={cluster} />
          </div>
          {commands.length > 0 ? (
            <p class="commands">
              From a terminal (the dashboard does not change anything):{' '}
              {commands.map((command) => (
                <code class="copy-command" key={command}>
                  {command}
                </code>
              ))}
            </p>
          ) : null}
          <h2 id="h-targets">Targets</h2>
          {targets.length > 0 ? (
            <div class="chips" role="group" aria-label="Filter targets by phase">
              <a class="chip" href={broodOperationHref(cluster, namespace, name)} aria-current={!phase ? 'true' : undefined}>
                All {targets.length}
              </a>
              {targetPhaseCounts(targets).map(([targetPhase, count]) => (
                <a
                  class="chip"
                  key={targetPhase}
                  data-phase-chip={targetPhase}
                  href={broodOperationHref(cluster, namespace, name, phase === targetPhase ? '' : targetPhase)}
                  aria-current={phase === targetPhase ? 'true' : undefined}
                >
                  {targetPhase} {count}
                </a>
              ))}
            </div>
          ) : null}
          {shown.length > 0 ? (
            <DataTable
              label="Targets"
              class="brood-targets"
              columns={['Controller', 'Phase', 'Step', 'Step results', 'Started', 'Reported']}
            >
              {shown.map((target) => (
                <TargetRow
                  key={`${target.cluster}/${target.namespace}/${target.name}`}
                  target={target}
                  operation={operation}
                  types={types}
                  now={now}
                />
              ))}
            </DataTable>
          ) : targets.length === 0 ? (
            <Empty>No targets yet: the operation has not resolved its selection, or it selected no controller.</Empty>
          ) : (
            <Empty>
              No target is {phase}. <a href={broodOperationHref(cluster, namespace, name)}>Show every target</a>.
            </Empty>
          )}
        </>
      ) : null}
    </>
  );
}
