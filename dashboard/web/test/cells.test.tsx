import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadLevel, loadPercent, scaleCommand, sortPools } from '../src/cells';
import type { CellPoolBlock } from '../src/types';

function pool(name: string, extra: Partial<CellPoolBlock> = {}): CellPoolBlock {
  return {
    cluster: 'eu-1',
    namespace: 'tenant-a',
    name,
    replicas: 2,
    ready: 2,
    teamsPerCell: 4,
    teams: 3,
    load: 0.38,
    cells: [
      { name: `${name}-0`, phase: 'Connected', teams: ['billing', 'orders', 'payments'], draining: false, load: 0.75 },
      { name: `${name}-1`, phase: 'Provisioning', teams: [], draining: true, load: 0 },
    ],
    unplacedTeams: [],
    createdAt: '2026-12-05T00:00:00Z',
    ...extra,
  };
}

describe('cell pools', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('orders pools by cluster, namespace and name', () => {
    const sorted = sortPools([
      pool('ci', { cluster: 'eu-1', namespace: 'tenant-b' }),
      pool('builds', { cluster: 'eu-1', namespace: 'tenant-a' }),
      pool('ci-east', { cluster: 'east', namespace: 'tenant-b' }),
    ]);
    expect(sorted.map((p) => `${p.cluster}/${p.namespace}/${p.name}`)).toEqual([
      'east/tenant-b/ci-east',
      'eu-1/tenant-a/builds',
      'eu-1/tenant-b/ci',
    ]);
  });

  it('says the load as a percentage and warns of full cells', () => {
    expect(loadPercent(0.75)).toBe('75%');
    expect(loadPercent(Number.NaN)).toBe('0%');
    expect(loadLevel(0.5)).toBe('ok');
    expect(loadLevel(0.8)).toBe('high');
    expect(loadLevel(1)).toBe('full');
  });

  it('builds the scale command with the pool, the replicas and the cluster', () => {
    expect(scaleCommand({ name: 'builds', cluster: 'east' }, 3)).toBe(
      'varroactl scale cellpool builds --replicas 3 --cluster east',
    );
  });

  it('draws a block per pool with its cells, teams, load and the command to copy', async () => {
    const { CellsPage } = await import('../src/pages/CellsPage');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(
          JSON.stringify({
            pools: [pool('builds', { unplacedTeams: ['late'] }), pool('ci-east', { cluster: 'east', replicas: 1 })],
            clusters: [
              { name: 'east', ok: true },
              { name: 'eu-2', ok: false, reason: 'list unavailable' },
            ],
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
      ),
    );
    render(<CellsPage />);
    const commands = await screen.findAllByText(/^varroactl scale cellpool/);
    expect(commands.map((c) => c.textContent)).toEqual([
      'varroactl scale cellpool ci-east --replicas 1 --cluster east',
      'varroactl scale cellpool builds --replicas 2 --cluster eu-1',
    ]);
    expect(screen.getAllByText('billing, orders, payments')).toHaveLength(2);
    expect(screen.getAllByText('75%').length).toBeGreaterThan(0);
    expect(screen.getByText(/Waiting for room .*: late\./)).toBeTruthy();
    expect(screen.getAllByText(/draining/).length).toBe(2);
    expect(screen.getByRole('alert').textContent).toContain('Cluster eu-2:');
  });
});
