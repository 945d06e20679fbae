import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../api';
import { BASE } from '../router';
import type { Me } from '../types';

const NAV = [
  { label: 'Overview', href: `${BASE}/`, section: '' },
  { label: 'Controllers', href: `${BASE}/controllers`, section: 'controllers' },
  { label: 'Activity', href: `${BASE}/activity`, section: 'activity' },
  { label: 'Brood operations', href: `${BASE}/broodoperations`, section: 'broodoperations' },
  { label: 'Schedules', href: `${BASE}/schedules`, section: 'schedules' },
  { label: 'Cells', href: `${BASE}/cells`, section: 'cells' },
  { label: 'Pipelines', href: `${BASE}/pipelines`, section: 'pipelines' },
  { label: 'Clusters', href: `${BASE}/clusters`, section: 'clusters' },
];

export function Header({ section }: { section: string }) {
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    getJson<Me>('/me').then(setMe, () => setMe(null));
  }, []);
  // A run belongs to a controller: keep Controllers marked while reading one.
  const current = section === 'runs' ? 'controllers' : section;
  return (
    <header class="site-header">
      <a class="brand" href={`${BASE}/`}>
        <span class="brand-mark" aria-hidden="true" />
        Varroa
      </a>
      <nav aria-label="Main">
        <ul>
          {NAV.map((item) => (
            <li key={item.label}>
              <a href={item.href} aria-current={item.section === current ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="user">
        {me ? (
          <span class="user-name" title={me.groups?.length ? 'groups: ' + me.groups.join(', ') : undefined}>
            {me.user}
          </span>
        ) : null}
        {/* a POST, so no link or image elsewhere can log a person out; the BFF checks it came from this origin */}
        <form class="logout" method="post" action="/auth/logout">
          <button type="submit">Log out</button>
        </form>
      </div>
    </header>
  );
}
