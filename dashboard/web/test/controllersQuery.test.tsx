import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyQuery, DEFAULT_QUERY, formatQuery, parseQuery, toggleSort } from '../src/controllersQuery';
import { row } from './fixtures';

describe('controllers query and the URL', () => {
  it('round-trips every filter, the search and the sort', () => {
    const query = {
      q: 'team a',
      cluster: 'member-1',
      namespace: 'ci',
      phase: 'Running',
      attention: 'Apply failed',
      sort: 'lastApply' as const,
      dir: 'desc' as const,
    };
    const search = formatQuery(query);
    expect(search).toBe('?q=team+a&cluster=member-1&namespace=ci&phase=Running&attention=Apply+failed&sort=lastApply&dir=desc');
    expect(parseQuery(search)).toEqual(query);
  });

  it('falls back to name ascending for a missing or unknown sort', () => {
    expect(parseQuery('?sort=bogus&dir=sideways')).toEqual(DEFAULT_QUERY);
    expect(formatQuery(DEFAULT_QUERY)).toBe('?sort=name&dir=asc');
  });

  it('flips the direction of the same column and starts another ascending', () => {
    expect(toggleSort(DEFAULT_QUERY, 'name')).toMatchObject({ sort: 'name', dir: 'desc' });
    expect(toggleSort({ ...DEFAULT_QUERY, dir: 'desc' }, 'phase')).toMatchObject({ sort: 'phase', dir: 'asc' });
  });

  it('filters by search text over names, bundles and labels, and sorts', () => {
    const rows = [
      row('orders', { labels: { team: 'shop' } }),
      row('billing', { namespace: 'finance', attention: 'Blocked' }),
      row('api', { phase: 'Running', attention: 'Failed' }),
    ];
    expect(applyQuery(rows, { ...DEFAULT_QUERY, q: 'team=shop' }).map((r) => r.name)).toEqual(['orders']);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, q: 'FINANCE' }).map((r) => r.name)).toEqual(['billing']);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, attention: 'true' }).map((r) => r.name)).toEqual(['api', 'billing']);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, attention: 'false' }).map((r) => r.name)).toEqual(['orders']);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, sort: 'attention' }).map((r) => r.name)).toEqual(['api', 'billing', 'orders']);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, dir: 'desc' }).map((r) => r.name)).toEqual(['orders', 'billing', 'api']);
  });
});

describe('Controllers page', () => {
  beforeEach(() => {
    vi.stubGlobal('EventSource', undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (path: string) => {
        const body = path.startsWith('/controllers')
          ? {
              items: [row('orders'), row('billing', { namespace: 'finance', phase: 'Running' }), row('api')],
              clusters: [{ name: 'core', ok: true }],
            }
          : path.startsWith('/clusters')
            ? { items: [] }
            : {};
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    window.history.replaceState(null, '', '/ui/controllers?q=&phase=Running&sort=name&dir=asc');
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('reads its filters from the URL and writes sort and search back to it', async () => {
    const { App } = await import('../src/App');
    render(<App />);
    const table = await screen.findByRole('table', { name: 'Controllers' });
    expect([...table.querySelectorAll('tr[data-controller]')].map((tr) => tr.getAttribute('data-controller'))).toEqual([
      'core/finance/billing',
    ]);
    expect((screen.getByLabelText('Phase') as HTMLSelectElement).value).toBe('Running');

    fireEvent.change(screen.getByLabelText('Phase'), { target: { value: '' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Sort by Name' }));
    expect(window.location.search).toBe('?sort=name&dir=desc');
    const header = screen.getByRole('button', { name: 'Sort by Name' }).closest('th')!;
    expect(header.getAttribute('aria-sort')).toBe('descending');
    const names = [...document.querySelectorAll('tr[data-controller]')].map((tr) => tr.getAttribute('data-controller'));
    expect(names).toEqual(['core/ci/orders', 'core/finance/billing', 'core/ci/api']);

    fireEvent.input(screen.getByRole('searchbox', { name: 'Search controllers' }), { target: { value: 'ord' } });
    expect(window.location.search).toBe('?q=ord&sort=name&dir=desc');
    expect(document.querySelectorAll('tr[data-controller]')).toHaveLength(1);
    expect(window.__varroaTiming?.firstRender).toBeGreaterThan(0);
  });

  it('focuses the search when / is pressed outside an input', async () => {
    const { App } = await import('../src/App');
    render(<App />);
    await screen.findByRole('table', { name: 'Controllers' });
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search controllers' }));
  });
});
