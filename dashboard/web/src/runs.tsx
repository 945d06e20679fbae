import { duration } from './time';
import type { RunDetail, Stage, TestSummary } from './types';

export function resultClass(result: string | null | undefined): string {
  switch (result) {
    case 'SUCCESS':
      return 'ok';
    case 'FAILURE':
    case 'ABORTED':
      return 'bad';
    case 'UNSTABLE':
      return 'warn';
    default:
      return 'muted';
  }
}

export function RunResult({ run }: { run: { result: string | null; completedAt: string | null; startedAt: string | null } }) {
  if (run.result) return <span class={`result ${resultClass(run.result)}`}>{run.result}</span>;
  if (!run.completedAt) return <span class="result running">{run.startedAt ? 'running' : 'queued'}</span>;
  return <span class="muted">no result</span>;
}

export function testsText(tests: TestSummary | null | undefined): string {
  if (!tests) return '';
  const passed = tests.total - tests.failed - tests.skipped;
  return `${passed} passed, ${tests.failed} failed, ${tests.skipped} skipped`;
}

export function TestsCell({ tests }: { tests: TestSummary | null | undefined }) {
  if (!tests) return <span class="muted">no tests</span>;
  return <span class={tests.failed ? 'bad' : 'ok'}>{testsText(tests)}</span>;
}

function stageClass(stage: Stage): string {
  return resultClass(stage.status) === 'muted' && stage.status === 'IN_PROGRESS' ? 'running' : resultClass(stage.status);
}

/** The stages in one line: a pill per stage coloured by its status. */
export function StagePills({ run }: { run: RunDetail | undefined }) {
  if (!run) return <span class="muted">…</span>;
  if (!run.stages?.length) return <span class="muted">no stages</span>;
  return (
    <ul class="stage-pills" aria-label="Stages">
      {run.stages.map((stage) => (
        <li key={stage.id} class={`pill ${stageClass(stage)}`} title={`${stage.status} ${duration(stage.durationMillis)}`}>
          {stage.parallelBranch ? `${stage.parallelBranch} / ` : ''}
          {stage.name}
        </li>
      ))}
    </ul>
  );
}
