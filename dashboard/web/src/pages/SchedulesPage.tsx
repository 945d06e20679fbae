import { useMemo } from 'preact/hooks';
import { getJson } from '../api';
import { groupJobSchedules, inTimeZone, sortSchedules } from '../brood';
import { ClusterWarnings } from '../components/ClusterWarnings';
import { DataTable, Empty, ErrorNote, LiveIndicator, Loading, PageHeading, PhaseBadge, RelTime } from '../components/common';
import { useNow, usePolling } from '../live';
import { broodOperationHref, controllerHref } from '../router';
import type { BroodScheduleList, BroodScheduleRow } from '../types';

function When({ value, timeZone, now, empty }: { value: string | null; timeZone: string | null; now: number; empty: string }) {
  if (!value) return <span class="muted">{empty}</span>;
  return (
    <>
      <RelTime value={value} now={now} />
      <div class="muted zoned">{inTimeZone(value, timeZone)}</div>
    </>
  );
}

function ScheduleRow({ row, now }: { row: BroodScheduleRow; now: number }) {
  const active = row.active ?? [];
  return (
    <tr data-schedule={`${row.cluster}/${row.namespace}/${row.name}`}>
      <td class="name">
        {row.name}
        <div class="muted">
          {row.cluster} / {row.namespace}
        </div>
      </td>
      <td>
        <code>{row.schedule}</code>
        {row.concurrencyPolicy && row.concurrencyPolicy !== 'Forbid' ? <div class="muted">{row.concurrencyPolicy}</div> : null}
      </td>
      <td>{row.timeZone || 'UTC'}</td>
      <td>
        {row.suspend ? (
          <span class="muted">none while suspended</span>
        ) : (
          <When value={row.nextRunTime} timeZone={row.timeZone} now={now} empty="—" />
        )}
      </td>
      <td>
        <When value={row.lastRunTime} timeZone={row.timeZone} now={now} empty="never" />
      </td>
      <td>
        {row.lastResult ? <PhaseBadge phase={row.lastResult} /> : <span class="muted">—</span>}
        {row.lastOperation ? (
          <div>
            <a href={broodOperationHref(row.cluster, row.namespace, row.lastOperation)}>{row.lastOperation}</a>
          </div>
        ) : null}
        {row.message ? <div class="row-message muted">{row.message}</div> : null}
      </td>
      <td>{row.suspend ? <span class="warn">Suspended</span> : <span class="muted">no</span>}</td>
      <td>
        {active.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <ul class="plain-list">
            {active.map((operation) => (
              <li key={operation}>
                <a href={broodOperationHref(row.cluster, row.namespace, operation)}>{operation}</a>
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** The BroodSchedules of every cluster that answered, and the timer triggers of each controller's Jenkins jobs. */
export function SchedulesPage() {
  const polled = usePolling(() => getJson<BroodScheduleList>('/broodschedules'), 'broodschedules');
  const now = useNow();
  const list = polled.data;
  const schedules = useMemo(() => sortSchedules(list?.schedules ?? []), [list]);
  const jobGroups = useMemo(() => groupJobSchedules(list?.jobSchedules ?? []), [list]);
  const jobCount = list?.jobSchedules?.length ?? 0;

  return (
    <>
      <PageHeading title="Schedules">
        <LiveIndicator updatedAt={polled.updatedAt} staleSince={polled.staleSince} error={polled.error} />
      </PageHeading>
      {list ? <ClusterWarnings statuses={list.clusters ?? []} what="brood schedules" /> : null}
      {polled.error && !list ? <ErrorNote what="the schedules" error={polled.error} /> : null}
      {!list && !polled.error ? <Loading what="schedules from every cluster" /> : null}
      {list ? (
        <>
          <section aria-labelledby="h-brood-schedules">
            <h2 id="h-brood-schedules">Brood schedules</h2>
            <p class="count">
              {schedules.length} schedule{schedules.length === 1 ? '' : 's'}; times are shown in each schedule's time zone.
            </p>
            {schedules.length > 0 ? (
              <DataTable
                label="Brood schedules"
                class="brood-schedules"
                columns={['Name', 'Schedule', 'Time zone', 'Next run', 'Last run', 'Last result', 'Suspended', 'Active']}
              >
                {schedules.map((row) => (
                  <ScheduleRow row={row} now={now} key={`${row.cluster}/${row.namespace}/${row.name}`} />
                ))}
              </DataTable>
            ) : (
              <Empty>
                No BroodSchedule in the clusters that answered, or your VarroaRoleBindings let you see none.
              </Empty>
            )}
          </section>
          <section aria-labelledby="h-job-schedules">
            <h2 id="h-job-schedules">Job schedules</h2>
            <p class="count">
              {jobCount} scheduled job{jobCount === 1 ? '' : 's'} on {jobGroups.length} controller
              {jobGroups.length === 1 ? '' : 's'}, as each controller's Jenkins last reported its timer triggers.
            </p>
            {jobGroups.length > 0 ? (
              <DataTable label="Job schedules" class="job-schedules" columns={['Controller', 'Job', 'Timer', 'Reported']}>
                {jobGroups.flatMap((group) =>
                  group.jobs.map((job, index) => (
                    <tr
                      key={`${group.cluster}/${group.namespace}/${group.controller}/${job.job}`}
                      data-job-schedule={`${group.cluster}/${group.namespace}/${group.controller}/${job.job}`}
                      class={index === 0 ? 'group-start' : undefined}
                    >
                      {index === 0 ? (
                        <th scope="rowgroup" rowSpan={group.jobs.length}>
                          <a href={controllerHref(group.cluster, group.namespace, group.controller)}>{group.controller}</a>
                          <div class="muted">
                            {group.cluster} / {group.namespace}
                          </div>
                        </th>
                      ) : null}
                      <td>{job.job}</td>
                      <td>
                        {job.timerSpecs.map((spec) => (
                          <code class="timer-spec" key={spec}>
                            {spec}
                          </code>
                        ))}
                      </td>
                      <td>
                        <RelTime value={job.observedAt} now={now} />
                      </td>
                    </tr>
                  )),
                )}
              </DataTable>
            ) : list.recordStore === false ? (
              <Empty>
                This dashboard runs without the record store, which keeps the job schedules the Varroa plugin reports.
              </Empty>
            ) : (
              <Empty>No job with a timer trigger has been reported by a controller you may see.</Empty>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
