// The BFF's JSON shapes (docs/dashboard-api.md); fields the client does not read are left out.

export interface LastApply {
  succeeded: boolean;
  message: string;
  appliedAt: string;
}

export interface ControllerRow {
  cluster: string;
  namespace: string;
  name: string;
  uid: string;
  phase: string;
  attention: string;
  bundle: string;
  revision: string;
  lastApply: LastApply | null;
  lastReconciledAt: string;
  jenkinsVersion: string;
  url: string;
  labels: Record<string, string>;
  createdAt: string;
}

export interface ClusterListStatus {
  name: string;
  ok: boolean;
  reason?: string;
}

export interface ControllerList {
  items: ControllerRow[];
  clusters: ClusterListStatus[];
}

export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}

export interface MiteStatus {
  connected?: boolean;
  gateway?: string;
  connectedAt?: string;
  miteVersion?: string;
  jenkinsVersion?: string;
  certificateNotAfter?: string;
}

export interface LastApplyResult {
  succeeded?: boolean;
  message?: string;
  bundleDigest?: string;
  appliedAt?: string;
}

export interface ControllerDetail extends ControllerRow {
  spec: Record<string, unknown> | null;
  status: (Record<string, unknown> & { miteStatus?: MiteStatus; lastApplyResult?: LastApplyResult }) | null;
  conditions: Condition[] | null;
  generation: number;
  settings?: Record<string, unknown> | null;
  versionProfile?: string;
  lock?: Record<string, string> | null;
  resolutionProblem?: string;
  desiredBundleDigest?: string;
  pendingBundleDigest?: string;
  bundlePlugins?: Record<string, string> | null;
  profileJenkinsVersion?: string;
}

export interface Cluster {
  name: string;
  role: string;
  core: boolean;
  healthy: boolean;
  heartbeatAgeSeconds: number;
  operatorVersion: string;
  kubernetesVersion: string;
  connectedControllers: number;
  controllers: number;
  /** docs/actions.md: '' (no drain), 'Draining' (controllers = the ones left), 'Drained', 'DrainCancelled'. */
  drainState?: string;
}

export interface Run {
  runId: string;
  cluster: string;
  namespace: string;
  controller: string;
  job: string;
  build: number;
  result: string | null;
  cause: string;
  node: string;
  queuedAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  durationMillis: number | null;
  queuedMillis: number | null;
}

export interface Stage {
  id: string;
  name: string;
  parallelBranch: string | null;
  status: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMillis: number | null;
}

export interface TestSummary {
  total: number;
  failed: number;
  skipped: number;
}

export interface RunDetail extends Run {
  stages: Stage[];
  tests: TestSummary | null;
}

export interface ActivityEvent {
  id: string;
  cluster: string;
  namespace: string;
  controller: string;
  kind: string;
  actor: string;
  summary: string;
  occurredAt: string;
  attributes?: Record<string, string>;
}

export interface Me {
  user: string;
  groups: string[];
}

/** How many targets of a brood operation are in each phase (docs/brood-operations.md). */
export interface BroodCounts {
  total?: number;
  pending?: number;
  running?: number;
  paused?: number;
  succeeded?: number;
  failed?: number;
  unknown?: number;
  cancelled?: number;
}

export interface BroodOperationRow {
  cluster: string;
  namespace: string;
  name: string;
  phase: string | null;
  message: string | null;
  dryRun: boolean | null;
  steps: string[] | null;
  counts: BroodCounts | null;
  createdAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  /** The BroodSchedule that created it (label varroa.dev/brood-schedule), or null. */
  schedule: string | null;
}

export interface BroodOperationList {
  operations: BroodOperationRow[];
  clusters: ClusterListStatus[];
}

export interface BroodStepResult {
  type?: string;
  phase?: string;
  startedAt?: string;
  completedAt?: string;
  message?: string;
}

export interface BroodTargetStatus {
  cluster?: string;
  namespace?: string;
  name?: string;
  phase?: string;
  step?: number;
  message?: string;
  startedAt?: string;
  completedAt?: string;
  reportedAt?: string;
  steps?: BroodStepResult[];
}

export interface BroodStepSpec {
  type: string;
  timeoutSeconds?: number;
  note?: string;
}

/** The BroodOperation as stored (api/.../BroodOperationSpec.java and BroodOperationStatus.java). */
export interface BroodOperationObject {
  metadata: {
    name: string;
    namespace: string;
    generation?: number;
    creationTimestamp?: string;
    labels?: Record<string, string>;
  };
  spec?: {
    targets?: {
      clusters?: string[];
      namespaces?: string[];
      names?: string[];
      selector?: Record<string, unknown>;
      phases?: string[];
    };
    steps?: BroodStepSpec[];
    strategy?: {
      maxConcurrent?: number | string;
      failurePolicy?: string;
      maxFailures?: number;
      stepTimeoutSeconds?: number;
      drainTimeoutSeconds?: number;
    };
    suspend?: boolean;
    cancel?: boolean;
    dryRun?: boolean;
  };
  status?: {
    phase?: string;
    message?: string;
    dryRun?: boolean;
    startedAt?: string;
    completedAt?: string;
    steps?: string[];
    counts?: BroodCounts;
    unresolvedClusters?: { cluster?: string; reason?: string }[];
    targets?: BroodTargetStatus[];
    conditions?: Condition[];
  };
}

export interface BroodOperationDetail {
  cluster: string;
  operation: BroodOperationObject;
}

export interface BroodScheduleRow {
  cluster: string;
  namespace: string;
  name: string;
  schedule: string;
  timeZone: string | null;
  suspend: boolean | null;
  concurrencyPolicy: string | null;
  nextRunTime: string | null;
  lastRunTime: string | null;
  lastResult: string | null;
  lastOperation: string | null;
  message: string | null;
  active: string[] | null;
}

/** One Jenkins job's timer triggers as the plugin last reported them (the recorder's job_schedules). */
export interface JobScheduleRow {
  cluster: string;
  namespace: string;
  controller: string;
  job: string;
  timerSpecs: string[];
  observedAt: string | null;
}

export interface BroodScheduleList {
  schedules: BroodScheduleRow[];
  jobSchedules: JobScheduleRow[];
  /** False when the BFF runs without the record store: job schedules are not known then. */
  recordStore?: boolean;
  clusters: ClusterListStatus[];
}

/** One cell of a pool (GET /cells): its Controller, phase, hosted teams and load = teams / teamsPerCell. */
export interface CellRow {
  name: string;
  phase: string;
  teams: string[];
  draining: boolean;
  load: number;
}

/** A block per pool per cluster (docs/dashboard-api.md, GET /cells). */
export interface CellPoolBlock {
  cluster: string;
  namespace: string;
  name: string;
  replicas: number;
  ready: number;
  teamsPerCell: number;
  teams: number;
  load: number;
  cells: CellRow[];
  unplacedTeams: string[];
  createdAt: string | null;
}

export interface CellPoolList {
  pools: CellPoolBlock[];
  clusters: ClusterListStatus[];
}
