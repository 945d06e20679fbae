// The Brood Operations page across clusters (a silent member named above the list, each operation's targets as a
// progress bar, under way first), then one operation's targets with their steps, a paused target's note, and a resume
// arriving without a reload; a failed operation's targets filtered to the failed one, its error shown.
import { assertNoSidewaysScroll, assertSameDocument, check, login, markDocument, run, shot, step } from './browser.mjs';

const SILENT = process.env.VARROA_E2E_SILENT_CLUSTER;

async function valueText(locator) {
  return locator.getByRole('progressbar').getAttribute('aria-valuetext');
}

await run('brood-operations', async ({ page }) => {
  check(SILENT, 'VARROA_E2E_SILENT_CLUSTER is set by DashboardBrowserIT');
  await login(page, '/ui/broodoperations');
  const weekly = page.locator('tr[data-operation="eu-1/ci/weekly-restart"]');
  await weekly.waitFor();
  const warning = page.locator(`[role="alert"][data-cluster-warning="${SILENT}"]`);
  await warning.getByText(/list unavailable/).waitFor();
  check((await warning.innerText()).includes('brood operations'), 'the warning should say brood operations are missing');

  const order = await page.locator('tr[data-operation]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-operation')));
  check(order[0] === 'eu-1/ci/weekly-restart', `the running operation comes first, got ${order}`);
  check(order.length === 3, `three operations, got ${order}`);
  const weeklyBar = await valueText(weekly);
  check(weeklyBar === '1 of 3 succeeded, 1 paused, 1 unknown', `weekly-restart's bar: ${weeklyBar}`);
  check((await weekly.innerText()).includes('weekly-safe-restart'), 'weekly-restart names the schedule that made it');
  const wave = page.locator('tr[data-operation="eu-1/ci/plugin-wave"]');
  check((await valueText(wave)) === '1 of 2 succeeded, 1 failed', `plugin-wave's bar: ${await valueText(wave)}`);
  await page.locator('tr[data-operation="eu-1/ci/preview"] .tag', { hasText: 'dry run' }).waitFor();
  await assertNoSidewaysScroll(page, 'brood operations');
  await shot(page, 'brood-operations');

  // the phase chip filters through the URL
  await page.getByRole('group', { name: 'Filter by phase' }).getByRole('link', { name: 'Failed' }).click();
  await page.waitForURL(/phase=Failed/);
  await page.locator('tr[data-operation]').first().waitFor();
  check((await page.locator('tr[data-operation]').count()) === 1, 'only the failed operation is left');

  await page.goto(page.url().replace(/\/broodoperations.*/, '/broodoperations'));
  await weekly.getByRole('link', { name: 'weekly-restart' }).click();
  const targets = page.getByRole('table', { name: 'Targets' });
  const teamA = targets.locator('tr[data-target="eu-1/ci/team-a"]');
  await teamA.waitFor();
  await teamA.getByRole('note').getByText(/check the backup in the bucket/).waitFor();
  check((await teamA.locator('.current-step').innerText()) === '2/3 pause', 'team-a waits at its pause step');
  const sandbox = targets.locator('tr[data-target="eu-1/ci/sandbox"]');
  check((await sandbox.locator('[data-step]').count()) === 3, 'sandbox shows a result for each of its three steps');
  check((await sandbox.locator('[data-step="safeRestart"]').innerText()).includes('Succeeded'), 'sandbox restarted');
  const far = targets.locator(`tr[data-target="${SILENT}/ci/far-away"]`);
  await far.getByText('its cluster does not answer').waitFor();
  await page.getByText(`varroactl broodop pause weekly-restart --cluster eu-1 -n ci`).waitFor();
  await assertNoSidewaysScroll(page, 'brood operation');
  // the targets at the top of the screenshot
  await page.evaluate(() => document.getElementById('h-targets').scrollIntoView());
  await shot(page, 'brood-operation');

  // a person resumes: team-a moves on to its restart while the page stays open
  await markDocument(page);
  step('resume');
  await teamA.locator('.current-step').getByText('3/3 safeRestart').waitFor();
  await teamA.locator('[data-step="safeRestart"]').getByText('Running').waitFor();
  check((await teamA.getByRole('note').count()) === 0, 'the paused note is gone once team-a runs');
  const runBar = page.getByRole('progressbar', { name: 'Targets' });
  check((await runBar.getAttribute('aria-valuetext')) === '1 of 3 succeeded, 1 running, 1 unknown',
    `the bar after the resume: ${await runBar.getAttribute('aria-valuetext')}`);
  await assertSameDocument(page);
  await page.evaluate(() => document.getElementById('h-targets').scrollIntoView());
  await shot(page, 'brood-operation-live');

  // the failed operation: only its failed target, with the error of the step that failed
  await page.goto(page.url().replace(/\/broodoperations\/.*/, '/broodoperations/eu-1/ci/plugin-wave?phase=Failed'));
  const failed = page.getByRole('table', { name: 'Targets' }).locator('tr[data-target]');
  await failed.first().waitFor();
  check((await failed.count()) === 1, 'the Failed chip leaves one target');
  check((await failed.getAttribute('data-target')) === 'eu-1/ci/team-a', 'team-a is the failed target');
  await failed.locator('[data-step="reapplyConfiguration"] .bad').getByText(/Jenkins refused the configuration/).waitFor();
  await shot(page, 'brood-operation-failed');
});
