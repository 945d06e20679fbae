import { useEffect } from 'preact/hooks';
import { ClusterProvider } from './clusters';
import { Header } from './components/Header';
import { HealthStrip } from './components/HealthStrip';
import { ActivityPage } from './pages/ActivityPage';
import { BroodOperationPage } from './pages/BroodOperationPage';
import { BroodOperationsPage } from './pages/BroodOperationsPage';
import { CellsPage } from './pages/CellsPage';
import { ClustersPage } from './pages/ClustersPage';
import { ControllerPage } from './pages/ControllerPage';
import { ControllersPage } from './pages/ControllersPage';
import { NewControllerPage } from './pages/NewControllerPage';
import { OverviewPage } from './pages/OverviewPage';
import { PipelinesPage } from './pages/PipelinesPage';
import { RunPage } from './pages/RunPage';
import { SchedulesPage } from './pages/SchedulesPage';
import { BASE, interceptLinks, navigate, pendingSearchFocus, routeSegments, useLocation } from './router';

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element || !element.tagName) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) || element.isContentEditable;
}

function onKey(event: KeyboardEvent) {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
  event.preventDefault();
  const search = document.querySelector<HTMLInputElement>('input[type=search]');
  if (search) {
    search.focus();
    search.select();
  } else {
    pendingSearchFocus.value = true;
    navigate(`${BASE}/controllers`);
  }
}

function NotFound({ path }: { path: string }) {
  return (
    <>
      <h1>Page not found</h1>
      <p class="empty">
        The dashboard has no page at <code>{path}</code>. Try the <a href={`${BASE}/`}>Overview</a>.
      </p>
    </>
  );
}

export function App() {
  const location = useLocation();
  useEffect(() => {
    document.addEventListener('click', interceptLinks);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('click', interceptLinks);
      document.removeEventListener('keydown', onKey);
    };
  }, []);
  const segments = routeSegments(location.pathname);
  const [section = ''] = segments;

  let page;
  if (segments.length === 0) page = <OverviewPage />;
  else if (section === 'controllers' && segments.length === 1) page = <ControllersPage search={location.search} />;
  else if (section === 'controllers' && segments.length === 2 && segments[1] === 'new') page = <NewControllerPage />;
  else if (section === 'controllers' && segments.length === 4)
    page = (
      <ControllerPage cluster={segments[1]} namespace={segments[2]} name={segments[3]} search={location.search} />
    );
  else if (section === 'runs' && segments.length === 2) page = <RunPage runId={segments[1]} />;
  else if (section === 'activity' && segments.length === 1) page = <ActivityPage search={location.search} />;
  else if (section === 'clusters' && segments.length === 1) page = <ClustersPage />;
  else if (section === 'broodoperations' && segments.length === 1) page = <BroodOperationsPage search={location.search} />;
  else if (section === 'broodoperations' && segments.length === 4)
    page = <BroodOperationPage cluster={segments[1]} namespace={segments[2]} name={segments[3]} search={location.search} />;
  else if (section === 'schedules' && segments.length === 1) page = <SchedulesPage />;
  else if (section === 'cells' && segments.length === 1) page = <CellsPage />;
  else if (section === 'pipelines' && segments.length === 1) page = <PipelinesPage search={location.search} />;
  else page = <NotFound path={location.pathname} />;

  return (
    <ClusterProvider>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header section={section} />
      <HealthStrip />
      <main id="main" tabIndex={-1}>
        {page}
      </main>
    </ClusterProvider>
  );
}
