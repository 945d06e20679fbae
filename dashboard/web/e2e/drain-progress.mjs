// A drain's progress on the Clusters page with the varroactl command to copy; never a button that changes state.
import { assertSameDocument, check, login, markDocument, run, shot, step } from './browser.mjs';

const MEMBER = process.env.VARROA_E2E_DRAINING_CLUSTER;

await run('drain-progress', async ({ page }) => {
  await login(page, '/ui/clusters');
  const cell = page.locator(`[data-drain="${MEMBER}"]`);
  await cell.getByText('Draining — 2 left').waitFor();
  const command = await cell.locator('code').innerText();
  check(command === `varroactl drain cluster ${MEMBER} --cancel`, `the cancel command to copy, got ${command}`);
  check((await cell.locator('button, a, form, input').count()) === 0, 'the drain cell has nothing that acts');
  check((await page.locator('[data-drain="eu-1"]').innerText()).includes('never drained'), 'the core is never drained');
  await markDocument(page);
  await shot(page, 'drain-progress');

  step('drained');
  await cell.getByText('Drained').waitFor();
  await assertSameDocument(page);
  check((await cell.locator('code').count()) === 0, 'no command once the cluster is drained');
});
