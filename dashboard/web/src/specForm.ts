// The Spec Editor's form: which Controller spec fields it edits, and which of them roll the pod (restart class).
// Restart-class fields mirror the operator's restart hash (docs/controllers.md "Change classes"); the BFF's
// POST /manifests/check gives the authoritative classification, this list marks fields while someone types.

export type Spec = Record<string, unknown>;

export interface FormField {
  /** Path under spec, e.g. ['miteSpec', 'image']. */
  path: string[];
  label: string;
  kind: 'text' | 'select' | 'number' | 'checkbox';
  options?: string[];
  placeholder?: string;
  /** A change here rolls the pod. */
  restart: boolean;
}

export interface FormGroup {
  title: string;
  fields: FormField[];
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

function resources(prefix: string, restart: boolean): FormField[] {
  return [
    { path: [prefix, 'resources', 'requests', 'cpu'], label: 'CPU request', kind: 'text', placeholder: 'e.g. 500m', restart },
    { path: [prefix, 'resources', 'requests', 'memory'], label: 'Memory request', kind: 'text', placeholder: 'e.g. 2Gi', restart },
    { path: [prefix, 'resources', 'limits', 'cpu'], label: 'CPU limit', kind: 'text', placeholder: 'e.g. 2', restart },
    { path: [prefix, 'resources', 'limits', 'memory'], label: 'Memory limit', kind: 'text', placeholder: 'e.g. 4Gi', restart },
  ];
}

export const BUNDLE_GROUP: FormGroup = {
  title: 'Bundle source',
  fields: [
    { path: ['composedBundleRef', 'name'], label: 'ComposedBundle', kind: 'text', placeholder: 'empty: the built-in varroa-starter', restart: true },
    { path: ['versionProfileRef', 'name'], label: 'JenkinsVersionProfile', kind: 'text', placeholder: "empty: the bundle's or the class's", restart: true },
    { path: ['classRef', 'name'], label: 'ControllerClass', kind: 'text', placeholder: 'optional', restart: true },
  ],
};

export const SETTINGS_GROUPS: FormGroup[] = [
  {
    title: 'Jenkins container',
    fields: [
      { path: ['jenkins', 'image'], label: 'Jenkins image', kind: 'text', placeholder: "empty: the profile's image", restart: true },
      { path: ['jenkins', 'imagePullPolicy'], label: 'Pull policy', kind: 'select', options: PULL_POLICIES, restart: true },
      { path: ['jenkins', 'javaOpts'], label: 'Java options', kind: 'text', placeholder: 'e.g. -Xmx2g', restart: true },
      ...resources('jenkins', true),
    ],
  },
  {
    title: 'Mite sidecar',
    fields: [
      { path: ['miteSpec', 'image'], label: 'Mite image', kind: 'text', placeholder: "empty: the operator's version", restart: true },
      { path: ['miteSpec', 'imagePullPolicy'], label: 'Pull policy', kind: 'select', options: PULL_POLICIES, restart: true },
      ...resources('miteSpec', true),
    ],
  },
  {
    title: 'Storage',
    fields: [
      { path: ['persistence', 'size'], label: 'JENKINS_HOME size', kind: 'text', placeholder: 'empty: 20Gi', restart: false },
      { path: ['persistence', 'storageClassName'], label: 'StorageClass', kind: 'text', placeholder: "empty: the cluster's default", restart: false },
    ],
  },
  {
    title: 'Ingress',
    fields: [
      { path: ['ingress', 'enabled'], label: 'Create an Ingress', kind: 'checkbox', restart: false },
      { path: ['ingress', 'host'], label: 'Host', kind: 'text', placeholder: 'e.g. jenkins.example.com', restart: false },
      { path: ['ingress', 'className'], label: 'IngressClass', kind: 'text', placeholder: "empty: the cluster's default", restart: false },
    ],
  },
  {
    title: 'Agents',
    fields: [
      { path: ['agents', 'namespace'], label: 'Agents namespace', kind: 'text', placeholder: 'empty: <namespace>-jobs', restart: false },
      { path: ['agents', 'tunnel'], label: 'Tunnel', kind: 'select', options: ['direct', 'websocket'], restart: false },
    ],
  },
  {
    title: 'Operations',
    fields: [
      { path: ['powerState'], label: 'Power state', kind: 'select', options: ['Running', 'Stopped'], restart: false },
      { path: ['hibernation', 'idleMinutes'], label: 'Hibernate after idle minutes', kind: 'number', restart: false },
      { path: ['backup', 'schedule'], label: 'Backup schedule (cron)', kind: 'text', placeholder: 'e.g. 0 3 * * *', restart: false },
      { path: ['reconciliation', 'drainTimeoutSeconds'], label: 'Drain timeout (s)', kind: 'number', placeholder: 'empty: 900', restart: false },
    ],
  },
];

/** Top-level spec fields whose change rolls the pod (the restart hash's inputs and what feeds them). */
export const RESTART_SUBTREES = ['jenkins', 'miteSpec', 'podTemplate', 'versionProfileRef', 'composedBundleRef', 'classRef'];

export function fieldId(field: FormField): string {
  return 'spec-' + field.path.join('-');
}

export function getAt(spec: Spec | null | undefined, path: string[]): unknown {
  let node: unknown = spec;
  for (const key of path) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A copy of spec with path set; an empty value removes the field and the mappings it leaves empty. */
export function setAt(spec: Spec, path: string[], value: unknown): Spec {
  const copy = JSON.parse(JSON.stringify(spec ?? {})) as Spec;
  const parents: Record<string, unknown>[] = [copy];
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
    parents.push(node);
  }
  const last = path[path.length - 1];
  if (value === undefined || value === '' || value === null || value === false) delete node[last];
  else node[last] = value;
  for (let i = path.length - 2; i >= 0; i--) {
    const parent = parents[i];
    const child = parent[path[i]] as Record<string, unknown>;
    if (child && Object.keys(child).length === 0) delete parent[path[i]];
  }
  return copy;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** Whether one form field differs from the spec in force. */
export function fieldChanged(current: Spec | null | undefined, proposed: Spec, path: string[]): boolean {
  return !same(getAt(current ?? {}, path), getAt(proposed, path));
}

/** The restart-class top-level fields that differ, as spec.* paths (the mark shown before the check answers). */
export function restartChanges(current: Spec | null | undefined, proposed: Spec | null | undefined): string[] {
  return RESTART_SUBTREES.filter((key) => !same(getAt(current ?? {}, [key]), getAt(proposed ?? {}, [key]))).map(
    (key) => 'spec.' + key,
  );
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: Spec;
}

export function controllerManifest(namespace: string, name: string, spec: Spec, labels?: Record<string, string>): Manifest {
  const metadata: Manifest['metadata'] = { name, namespace };
  if (labels && Object.keys(labels).length) metadata.labels = labels;
  return { apiVersion: 'varroa.dev/v1alpha1', kind: 'Controller', metadata, spec };
}
