// The Pipelines page: a row per pipeline of every Team the user may see, across clusters, a silent cluster named, the
// filters kept in the URL, the run command to copy, and a run that starts and ends showing without a reload.
// VARROA_E2E_PIPELINES are the rows the user must see (cluster/namespace/team/pipeline), VARROA_E2E_HIDDEN_PIPELINES
// the ones it must not; VARROA_E2E_LIVE names the row whose run the JUnit side starts and ends (steps run-started,
// run-ended).
import { assertNoSidewaysScroll, assertSameDocument, check, login, markDocument, run, shot, step } from './browser.mjs';

const SILENT = process.env.VARROA_E2E_SILENT_CLUSTER;
const ROWS = (process.env.VARROA_E2E_PIPELINES || '').split(',').filter(Boolean);
const HIDDEN = (process.env.VARROA_E2E_HIDDEN_PIPELINES || '').split(',').filter(Boolean);
const LIVE = process.env.VARROA_E2E_LIVE || '';
const SHOT = process.env.VARROA_E2E_SHOT || 'pipelines';

await run(SHOT, async ({ page }) => {
  check(SILENT && ROWS.length > 0, 'VARROA_E2E_SILENT_CLUSTER and VARROA_E2E_PIPELINES are set by PipelinesBrowserIT');
  await login(page, '/ui/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pipelines' }).click();
  await page.waitForURL(/\/ui\/pipelines$/);
  const warning = page.locator(`[role="alert"][data-cluster-warning="${SILENT}"]`);
  await warning.getByText(/list unavailable/).waitFor();
  check((await warning.innerText()).includes('pipelines'), 'the warning should say pipelines are missing');

  for (const key of ROWS) {
    await page.locator(`tr[data-pipeline="${key}"]`).waitFor();
  }
  const shown = await page.locator('tr[data-pipeline]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-pipeline')));
  check(JSON.stringify(shown) === JSON.stringify(ROWS), `the rows should be ${ROWS}, in order, got ${shown}`);
  for (const key of HIDDEN) {
    check(!shown.includes(key), `${key} belongs to another tenant and must not be shown`);
  }

  const [cluster, namespace, team, pipeline] = ROWS[ROWS.length - 1].split('/');
  const last = page.locator(`tr[data-pipeline="${ROWS[ROWS.length - 1]}"]`);
  const command = await last.locator('[data-run-command]').innerText();
  check(command === `varroactl run pipeline ${team}/${pipeline} -n ${namespace} --cluster ${cluster}`,
    `the run command of ${ROWS[ROWS.length - 1]}: ${command}`);
  for (const key of ROWS.filter((k) => k.startsWith('east/'))) {
    const text = await page.locator(`tr[data-pipeline="${key}"]`).innerText();
    check(text.includes('unknown'), `${key} is a member's Team: its kind is unknown, got ${text}`);
  }

  if (LIVE) {
    const row = page.locator(`tr[data-pipeline="${LIVE}"]`);
    await row.getByText('none recorded').waitFor();
    await markDocument(page);
    step('run-started');
    await row.getByText('running').waitFor();
    step('run-ended');
    await row.getByText('SUCCESS').waitFor();
    await row.getByText('1 min 2 s').waitFor();
    await assertSameDocument(page);
  }

  // the Team filter goes into the URL and keeps that Team's rows only
  await page.getByLabel('Team').selectOption(team);
  await page.waitForURL(new RegExp(`/ui/pipelines\\?team=${team}$`));
  const filtered = await page.locator('tr[data-pipeline]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-pipeline')));
  check(filtered.length > 0 && filtered.every((k) => k.split('/')[2] === team), `only ${team}'s rows: ${filtered}`);
  await page.reload();
  await page.locator(`tr[data-pipeline="${ROWS[ROWS.length - 1]}"]`).waitFor();
  check((await page.getByLabel('Team').inputValue()) === team, 'the filter survives a reload from the URL');
  await assertNoSidewaysScroll(page, 'pipelines');
  await shot(page, SHOT);
});
