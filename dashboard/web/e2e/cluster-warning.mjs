// A registered cluster that stops answering is named above the list with the reason, and in the health strip.
import { check, login, run, shot } from './browser.mjs';

const SILENT = process.env.VARROA_E2E_SILENT_CLUSTER;

await run('cluster-warning', async ({ page }) => {
  await login(page, '/ui/controllers');
  const warning = page.locator(`[role="alert"][data-cluster-warning="${SILENT}"]`);
  await warning.getByText(/list unavailable/).waitFor();
  check((await warning.innerText()).includes(SILENT), 'the warning should name the cluster');
  await page.getByRole('region', { name: 'Cluster health' }).locator(`[data-cluster="${SILENT}"]`).waitFor();
  await page.locator('tr[data-controller="eu-1/ci/team-a"]').waitFor();
  await page.getByRole('columnheader', { name: /Cluster/ }).first().waitFor();
  await shot(page, 'cluster-warning');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clusters' }).click();
  await page.getByText(SILENT).first().waitFor();
  const order = await page.locator('[data-cluster-row]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-cluster-row')));
  check(order.indexOf('eu-1') < order.indexOf(SILENT), `the core cluster comes first, got ${order}`);
  await shot(page, 'clusters');
});
