// The Cells page: a block per pool per cluster with its cells, their phase, hosted teams and load, the teams waiting
// for room, a silent cluster named above the blocks, and the scale command to copy, which follows the replicas typed.
// Run once per user: VARROA_E2E_POOLS are the blocks the user must see, VARROA_E2E_HIDDEN_POOLS the ones it must not.
import { assertNoSidewaysScroll, check, login, run, shot } from './browser.mjs';

const SILENT = process.env.VARROA_E2E_SILENT_CLUSTER;
const POOLS = (process.env.VARROA_E2E_POOLS || '').split(',').filter(Boolean);
const HIDDEN = (process.env.VARROA_E2E_HIDDEN_POOLS || '').split(',').filter(Boolean);
const SHOT = process.env.VARROA_E2E_SHOT || 'cells';

await run(SHOT, async ({ page }) => {
  check(SILENT && POOLS.length > 0, 'VARROA_E2E_SILENT_CLUSTER and VARROA_E2E_POOLS are set by CellsBrowserIT');
  await login(page, '/ui/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cells' }).click();
  await page.waitForURL(/\/ui\/cells$/);
  const warning = page.locator(`[role="alert"][data-cluster-warning="${SILENT}"]`);
  await warning.getByText(/list unavailable/).waitFor();
  check((await warning.innerText()).includes('cell pools'), 'the warning should say cell pools are missing');

  for (const key of POOLS) {
    await page.locator(`section[data-pool="${key}"]`).waitFor();
  }
  const shown = await page.locator('section[data-pool]').evaluateAll((blocks) => blocks.map((b) => b.getAttribute('data-pool')));
  check(JSON.stringify(shown) === JSON.stringify(POOLS), `the blocks should be ${POOLS}, in order, got ${shown}`);
  for (const key of HIDDEN) {
    check(!shown.includes(key), `${key} belongs to another tenant and must not be shown`);
  }

  if (POOLS.includes('eu-1/tenant-a/builds')) {
    const builds = page.locator('section[data-pool="eu-1/tenant-a/builds"]');
    const first = builds.locator('tr[data-cell="builds-0"]');
    const text = await first.innerText();
    for (const expected of ['builds-0', 'Connected', 'orders, payments', '50%', '(2/4)']) {
      check(text.includes(expected), `builds-0 should show ${expected}: ${text}`);
    }
    await builds.locator('[data-unplaced]').getByText(/late/).waitFor();
  }

  const [cluster, , name] = POOLS[0].split('/');
  const block = page.locator(`section[data-pool="${POOLS[0]}"]`);
  const command = block.locator('[data-scale-command]');
  const initial = await command.innerText();
  check(initial.startsWith(`varroactl scale cellpool ${name} --replicas `) && initial.endsWith(` --cluster ${cluster}`),
    `the scale command of ${POOLS[0]}: ${initial}`);
  await block.getByLabel('Replicas').fill('5');
  await command.getByText(`varroactl scale cellpool ${name} --replicas 5 --cluster ${cluster}`).waitFor();
  await assertNoSidewaysScroll(page, 'cells');
  await shot(page, SHOT);
});
