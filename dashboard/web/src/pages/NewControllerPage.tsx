import { useMemo, useState } from 'preact/hooks';
import { useClusters } from '../clusters';
import { CheckReport, ManifestActions } from '../components/ManifestOutput';
import { PageHeading } from '../components/common';
import { SpecForm } from '../components/SpecForm';
import { useManifestCheck } from '../manifestCheck';
import { BASE } from '../router';
import { BUNDLE_GROUP, SETTINGS_GROUPS, controllerManifest, type Spec } from '../specForm';
import { toYaml } from '../yaml';

/**
 * The controller creation wizard: where (a healthy cluster, the core by default; namespace and name), the bundle
 * source, the main settings, and the Controller manifest to commit. Nothing is applied from here.
 */
export function NewControllerPage() {
  const state = useClusters();
  const healthy = (state.clusters ?? []).filter((c) => c.healthy);
  const hidden = (state.clusters ?? []).filter((c) => !c.healthy);
  const defaultCluster = healthy.find((c) => c.core)?.name ?? healthy[0]?.name ?? '';
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const cluster = picked !== undefined && healthy.some((c) => c.name === picked) ? picked : defaultCluster;
  const [namespace, setNamespace] = useState('');
  const [name, setName] = useState('');
  const [spec, setSpec] = useState<Spec>({});
  const text = useMemo(() => toYaml(controllerManifest(namespace, name, spec)), [namespace, name, spec]);
  const check = useManifestCheck(text, undefined, cluster || undefined);

  return (
    <>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <a href={`${BASE}/controllers`}>Controllers</a> <span aria-hidden="true">/</span> New
      </nav>
      <PageHeading title="New controller" />
      <p class="muted">
        Fill in where the controller runs and how it is set up: the page writes the Controller manifest, the BFF checks
        it with the CRD schema and the operator's settings resolver, and you commit it. The dashboard applies nothing.
      </p>
      <div class="wizard">
        <form class="wizard-form" onSubmit={(e) => e.preventDefault()} aria-label="New controller">
          <fieldset class="spec-group">
            <legend>1. Where</legend>
            <div class="field">
              <label for="wizard-cluster">Cluster</label>
              {state.clusters === undefined ? (
                <span class="muted">Loading the clusters…</span>
              ) : healthy.length === 0 ? (
                <span class="error" role="alert">
                  No cluster is healthy: create controllers once a cluster's operator reports in (see Clusters).
                </span>
              ) : (
                <select id="wizard-cluster" value={cluster} onChange={(e) => setPicked((e.target as HTMLSelectElement).value)}>
                  {healthy.map((c) => (
                    <option key={c.name} value={c.name}>
                      {c.name}
                      {c.core ? ' (core)' : ''}
                    </option>
                  ))}
                </select>
              )}
              {hidden.length ? (
                <span class="muted" data-hidden-clusters={hidden.map((c) => c.name).join(',')}>
                  Not offered (not healthy): {hidden.map((c) => `${c.name} (heartbeat ${c.heartbeatAgeSeconds} s ago)`).join(', ')}
                </span>
              ) : null}
            </div>
            <div class="field">
              <label for="wizard-namespace">Namespace</label>
              <input id="wizard-namespace" value={namespace} placeholder="e.g. ci" onInput={(e) => setNamespace((e.target as HTMLInputElement).value.trim())} />
            </div>
            <div class="field">
              <label for="wizard-name">Name</label>
              <input id="wizard-name" value={name} placeholder="e.g. team-a" onInput={(e) => setName((e.target as HTMLInputElement).value.trim())} />
            </div>
          </fieldset>
          <SpecForm groups={[{ ...BUNDLE_GROUP, title: '2. Bundle source' }]} spec={spec} onChange={setSpec} />
          <details class="wizard-settings" open>
            <summary>3. Settings (all optional: empty fields inherit from the ControllerClass and ProvisioningDefaults)</summary>
            <SpecForm groups={SETTINGS_GROUPS} spec={spec} onChange={setSpec} />
          </details>
        </form>
        <section class="wizard-output" aria-labelledby="h-manifest">
          <h2 id="h-manifest">4. The manifest</h2>
          <pre class="yaml" aria-label="Controller manifest" tabIndex={0} data-cluster={cluster}>
            <code>{text}</code>
          </pre>
          <CheckReport state={check} text={text} />
          <ManifestActions text={text} namespace={namespace} name={name} cluster={cluster} summary="new controller" />
        </section>
      </div>
    </>
  );
}
