// On the real node: log in through the test OpenID provider, open the Controller the test created, and find the run
// its Jenkins stand-in played (VARROA_E2E_CONTROLLER cluster/namespace/name, VARROA_E2E_JOB) in the Runs tab.
import { check, login, run, shot } from './browser.mjs';

const controller = process.env.VARROA_E2E_CONTROLLER;
const job = process.env.VARROA_E2E_JOB;

await run('real-node-run', async ({ page }) => {
  await login(page, '/ui/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Controllers' }).click();
  const table = page.getByRole('table', { name: 'Controllers' });
  await table.locator(`tr[data-controller="${controller}"]`).waitFor();
  await shot(page, 'real-node-controllers');
  await table.locator(`tr[data-controller="${controller}"]`).getByRole('link').first().click();
  await page.getByRole('tab', { name: 'Runs' }).click();
  const runs = page.getByRole('table', { name: 'Runs' });
  await runs.locator('tr[data-run]', { hasText: job }).first().waitFor();
  check(await runs.locator('tr[data-run]', { hasText: job }).count() >= 1, `the Runs tab should list ${job}`);
  await shot(page, 'real-node-runs');
});
