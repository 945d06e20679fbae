// The Schedules page: a brood schedule with its times in its own time zone, its last result linked to the operation
// it made, a suspended one whose last run was skipped, the job schedules one controller's Jenkins reported, and a
// silent member named above them.
import { assertNoSidewaysScroll, check, login, run, shot } from './browser.mjs';

const SILENT = process.env.VARROA_E2E_SILENT_CLUSTER;

await run('schedules', async ({ page }) => {
  check(SILENT, 'VARROA_E2E_SILENT_CLUSTER is set by DashboardBrowserIT');
  await login(page, '/ui/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
  const schedules = page.getByRole('table', { name: 'Brood schedules' });
  const weekly = schedules.locator('tr[data-schedule="eu-1/ci/weekly-safe-restart"]');
  await weekly.waitFor();
  const warning = page.locator(`[role="alert"][data-cluster-warning="${SILENT}"]`);
  await warning.getByText(/list unavailable/).waitFor();
  check((await warning.innerText()).includes('brood schedules'), 'the warning should say brood schedules are missing');

  // next run 02:00 UTC on Saturday 5 December: 03:00 in Berlin, as the cron expression reads it
  const text = await weekly.innerText();
  for (const expected of ['0 3 * * 6', 'Europe/Berlin', '5 Dec 2026', '03:00 Europe/Berlin', 'Running', 'weekly-restart']) {
    check(text.includes(expected), `the weekly-safe-restart row should show ${expected}: ${text}`);
  }
  const nightly = await schedules.locator('tr[data-schedule="eu-1/ci/nightly-backup"]').innerText();
  for (const expected of ['0 2 * * *', 'UTC', 'Suspended', 'Skipped', 'none while suspended', 'still running']) {
    check(nightly.includes(expected), `the nightly-backup row should show ${expected}: ${nightly}`);
  }
  const jobs = page.getByRole('table', { name: 'Job schedules' });
  const job = jobs.locator('tr[data-job-schedule="eu-1/ci/team-a/nightly-build"]');
  await job.getByText('H 2 * * *').waitFor();
  await jobs.locator('tr[data-job-schedule="eu-1/ci/team-a/cleanup"]').getByText('@weekly').waitFor();
  await assertNoSidewaysScroll(page, 'schedules');
  await shot(page, 'schedules');

  await weekly.getByRole('link', { name: 'weekly-restart' }).first().click();
  await page.getByRole('table', { name: 'Targets' }).locator('tr[data-target]').first().waitFor();
  check(page.url().endsWith('/ui/broodoperations/eu-1/ci/weekly-restart'), `the last operation's link: ${page.url()}`);
});
