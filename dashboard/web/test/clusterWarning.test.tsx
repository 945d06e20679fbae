import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterWarnings } from '../src/components/ClusterWarnings';

describe('cluster warning', () => {
  afterEach(cleanup);

  it('names each cluster whose list did not arrive, with its reason', () => {
    render(
      <ClusterWarnings
        statuses={[
          { name: 'core', ok: true },
          { name: 'member-east', ok: false, reason: 'list unavailable' },
          { name: 'member-west', ok: false, reason: 'invalid controller row' },
        ]}
      />,
    );
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((a) => a.getAttribute('data-cluster-warning'))).toEqual(['member-east', 'member-west']);
    expect(alerts[0].textContent).toContain('member-east');
    expect(alerts[0].textContent).toContain('list unavailable');
    expect(alerts[1].textContent).toContain('invalid controller row');
  });

  it('shows nothing when every cluster answered', () => {
    const { container } = render(<ClusterWarnings statuses={[{ name: 'core', ok: true }]} />);
    expect(container.innerHTML).toBe('');
  });
});
