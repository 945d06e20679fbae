import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { CheckState } from '../manifestCheck';

/** What the check said: problems with their fixes, warnings, and the change class of an edit. */
export function CheckReport({ state, text, localRestart }: { state: CheckState; text: string; localRestart?: string[] }) {
  const fresh = state.text === text;
  const result = fresh ? state.result : undefined;
  const restartFields = result?.changes
    ? result.changes.filter((c) => c.class === 'restart').map((c) => c.field)
    : (localRestart ?? []);
  return (
    <div class="check-report" aria-live="polite">
      {restartFields.length ? (
        <div class="warning restart-banner" role="status" data-change-class="restart">
          <strong>Restart class:</strong> committing this change rolls the Jenkins pod (a planned restart, drained up to
          the drain timeout). Changed:{' '}
          {restartFields.map((f, i) => (
            <Fragment key={f}>
              {i ? ', ' : ''}
              <code>{f}</code>
            </Fragment>
          ))}
          {result?.changes ? null : <span class="muted"> (checking…)</span>}
        </div>
      ) : result?.changeClass === 'reloadable' ? (
        <p class="ok" data-change-class="reloadable">
          No pod roll: {result.changes!.map((c) => c.field).join(', ')} reach Jenkins without a restart.
        </p>
      ) : null}
      {result?.changes && result.changes.length ? (
        <ul class="change-list">
          {result.changes.map((c) => (
            <li key={c.field} data-change={c.field} data-class={c.class}>
              <code>{c.field}</code> <span class={`badge change-${c.class}`}>{c.class === 'restart' ? 'restart' : 'no restart'}</span>{' '}
              {c.effect}
            </li>
          ))}
        </ul>
      ) : null}
      {state.error && fresh ? <p class="error">The check did not answer: {state.error.message}</p> : null}
      {!fresh ? <p class="muted check-state">Checking with the cluster's operator…</p> : null}
      {result && result.valid ? (
        <p class="ok check-state" data-check="valid" data-checked-by={result.cluster}>
          Valid: the operator of cluster {result.cluster} accepts this Controller (CRD schema, settings resolver, its
          ControllerClasses and ProvisioningDefaults).
        </p>
      ) : null}
      {result && !result.valid ? (
        <div class="error" role="alert" data-check="invalid">
          <strong>Not valid yet</strong>
          <ul class="problems">
            {result.problems.map((p, i) => (
              <li key={i} data-problem={p.field}>
                <code>{p.field}</code>: {p.message}. <em>Fix:</em> {p.fix}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result && result.warnings.length ? (
        <ul class="warnings muted">
          {result.warnings.map((w, i) => (
            <li key={i} data-warning={w.field}>
              <code>{w.field}</code>: {w.message}. {w.fix}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Copy, download, and how to commit: the dashboard never applies the manifest itself. */
export function ManifestActions({
  text,
  namespace,
  name,
  cluster,
  summary,
}: {
  text: string;
  namespace: string;
  name: string;
  cluster: string;
  summary: string;
}) {
  const [copied, setCopied] = useState('');
  const file = `controllers/${namespace || '<namespace>'}/${name || '<name>'}.yaml`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser refused the clipboard: select the YAML and copy it.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${name || 'controller'}.yaml`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div class="manifest-actions">
      <div class="button-row">
        <button type="button" class="button" onClick={copy}>
          Copy YAML
        </button>
        <button type="button" class="button" onClick={download}>
          Download {name || 'controller'}.yaml
        </button>
        {copied ? <span class="muted">{copied}</span> : null}
      </div>
      <details class="commit-howto">
        <summary>How to commit it to the bundle repository</summary>
        <p class="muted">
          The dashboard applies nothing. Commit the file to the repository your GitOps tool (Argo CD or Flux) syncs to
          cluster <strong>{cluster || '<cluster>'}</strong>; the tool applies it and the operator reconciles.
        </p>
        <pre class="yaml">
          <code>{`git switch -c controller-${namespace || 'ns'}-${name || 'name'}
# save the YAML as ${file} (or over the file that holds this Controller)
varroactl render controller -f ${file}    # optional: what the operator will create, offline
git add ${file}
git commit -m "Controller ${namespace || '<namespace>'}/${name || '<name>'}: ${summary}"
git push -u origin HEAD                    # open a pull request; once merged, the GitOps tool syncs it`}</code>
        </pre>
      </details>
    </div>
  );
}
