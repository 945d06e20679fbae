import type { ControllerRow } from '../src/types';

export function row(name: string, extra: Partial<ControllerRow> = {}): ControllerRow {
  return {
    cluster: 'core',
    namespace: 'ci',
    name,
    uid: 'uid-' + name,
    phase: 'Connected',
    attention: '',
    bundle: name + '-ci',
    revision: 'sha256:' + 'ab'.repeat(32),
    lastApply: null,
    lastReconciledAt: '2026-12-01T10:00:00Z',
    jenkinsVersion: '2.504.3',
    url: '',
    labels: {},
    createdAt: '2026-12-01T09:00:00Z',
    ...extra,
  };
}
