import { useMemo } from 'preact/hooks';
import type { ControllerDetail } from '../../types';
import { toYaml } from '../../yaml';

/** The Controller as the API server stores it, rebuilt from the BFF's detail. */
export function storedObject(detail: ControllerDetail): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    name: detail.name,
    namespace: detail.namespace,
    uid: detail.uid,
    generation: detail.generation,
    creationTimestamp: detail.createdAt || undefined,
  };
  if (detail.labels && Object.keys(detail.labels).length) metadata.labels = detail.labels;
  return {
    apiVersion: 'varroa.dev/v1alpha1',
    kind: 'Controller',
    metadata,
    spec: detail.spec ?? {},
    status: detail.status ?? {},
  };
}

export function YamlTab({ detail }: { detail: ControllerDetail }) {
  const text = useMemo(() => toYaml(storedObject(detail)), [detail]);
  return (
    <section aria-labelledby="h-yaml">
      <h2 id="h-yaml">YAML</h2>
      <p class="muted">
        Read-only: change the Controller in its Git repository; the GitOps tool syncs it and the operator reconciles.
      </p>
      <pre class="yaml" aria-label="Controller YAML" tabIndex={0}>
        <code>{text}</code>
      </pre>
    </section>
  );
}
