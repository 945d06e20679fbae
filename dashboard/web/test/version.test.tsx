import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { VersionTab } from '../src/pages/controller/VersionTab';
import { pluginDifferences } from '../src/pluginDiff';
import type { ControllerDetail } from '../src/types';
import { row } from './fixtures';

describe('plugin differences', () => {
  it('lists plugins added by the bundle, with another version, or only in the profile', () => {
    expect(
      pluginDifferences(
        { git: '5.7.0', 'job-dsl': '1.90', 'configuration-as-code': '1953.v1' },
        { git: '5.7.0', 'job-dsl': '1.87', credentials: '1405.v1' },
      ),
    ).toEqual([
      { plugin: 'configuration-as-code', change: 'added', bundle: '1953.v1' },
      { plugin: 'credentials', change: 'profile-only', profile: '1405.v1' },
      { plugin: 'job-dsl', change: 'changed', bundle: '1.90', profile: '1.87' },
    ]);
    expect(pluginDifferences(null, undefined)).toEqual([]);
  });
});

describe('Version tab', () => {
  afterEach(cleanup);

  it('shows the Jenkins versions and a row per differing plugin', () => {
    const detail = {
      ...row('orders', { jenkinsVersion: '2.504.3' }),
      profileJenkinsVersion: '2.504.3',
      versionProfile: 'lts-2.504',
      bundlePlugins: { git: '5.7.0', 'job-dsl': '1.90' },
      lock: { git: '5.7.0', 'job-dsl': '1.87' },
    } as unknown as ControllerDetail;
    render(<VersionTab detail={detail} />);
    const differences = screen.getByRole('table', { name: 'Plugin differences' });
    const rows = within(differences).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0].getAttribute('data-plugin')).toBe('job-dsl');
    expect(rows[0].textContent).toContain('different version');
    expect(rows[0].textContent).toContain('1.90');
    expect(rows[0].textContent).toContain('1.87');
    expect(within(screen.getByRole('table', { name: 'Plugin lock' })).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('lts-2.504')).toBeTruthy();
  });
});
