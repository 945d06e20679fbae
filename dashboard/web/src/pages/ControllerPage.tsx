import { getJson, controllerPath } from '../api';
import { useClusters } from '../clusters';
import { AttentionBadge, ErrorNote, LiveIndicator, Loading, PageHeading, PhaseBadge } from '../components/common';
import { Tabs } from '../components/Tabs';
import { useActivityRefresh, usePolling } from '../live';
import { BASE, controllerHref, navigate } from '../router';
import type { ControllerDetail } from '../types';
import { OverviewTab } from './controller/OverviewTab';
import { RunsTab } from './controller/RunsTab';
import { SpecEditorTab } from './controller/SpecEditorTab';
import { VersionTab } from './controller/VersionTab';
import { YamlTab } from './controller/YamlTab';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'yaml', label: 'YAML' },
  { id: 'spec', label: 'Spec Editor' },
  { id: 'version', label: 'Version' },
  { id: 'runs', label: 'Runs' },
];

interface Props {
  cluster: string;
  namespace: string;
  name: string;
  search: string;
}

export function ControllerPage({ cluster, namespace, name, search }: Props) {
  const requested = new URLSearchParams(search).get('tab') ?? 'overview';
  const tab = TABS.some((t) => t.id === requested) ? requested : 'overview';
  const key = `${cluster}/${namespace}/${name}`;
  const polled = usePolling(() => getJson<ControllerDetail>(controllerPath(cluster, namespace, name)), key);
  useActivityRefresh(
    polled.refresh,
    (event) => event.cluster === cluster && event.namespace === namespace && event.controller === name,
    key,
  );
  const clusters = useClusters();
  const detail = polled.data;

  return (
    <>
      <nav aria-label="Breadcrumb" class="breadcrumb">
        <a href={`${BASE}/controllers`}>Controllers</a> <span aria-hidden="true">/</span>{' '}
        <a href={`${BASE}/controllers?cluster=${encodeURIComponent(cluster)}&sort=name&dir=asc`}>{cluster}</a>{' '}
        <span aria-hidden="true">/</span>{' '}
        <a href={`${BASE}/controllers?namespace=${encodeURIComponent(namespace)}&sort=name&dir=asc`}>{namespace}</a>
      </nav>
      <PageHeading title={name}>
        {detail ? (
          <>
            <PhaseBadge phase={detail.phase} />
            {detail.attention ? <AttentionBadge attention={detail.attention} /> : null}
          </>
        ) : null}
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      {polled.error && !detail ? <ErrorNote what={`controller ${namespace}/${name} in cluster ${cluster}`} error={polled.error} /> : null}
      {!detail && !polled.error ? <Loading what={`controller ${namespace}/${name} from cluster ${cluster}`} /> : null}
      {detail ? (
        <Tabs
          label="Controller"
          tabs={TABS}
          selected={tab}
          onSelect={(id) => navigate(controllerHref(cluster, namespace, name, id))}
        >
          {tab === 'overview' ? <OverviewTab detail={detail} /> : null}
          {tab === 'yaml' ? <YamlTab detail={detail} /> : null}
          {tab === 'spec' ? <SpecEditorTab detail={detail} cluster={cluster} /> : null}
          {tab === 'version' ? <VersionTab detail={detail} /> : null}
          {tab === 'runs' ? (
            <RunsTab cluster={cluster} namespace={namespace} name={name} core={clusters.clusters?.find((c) => c.core)?.name} />
          ) : null}
        </Tabs>
      ) : null}
    </>
  );
}
