// A controller's condition changes while its page is open: the change shows without a reload, and the overview's
// needs-attention panel names it with the fix.
import { assertSameDocument, login, markDocument, run, shot, step } from './browser.mjs';

await run('condition-live', async ({ page }) => {
  await login(page, '/ui/controllers/eu-1/ci/team-a');
  const conditions = page.getByRole('table', { name: 'Conditions' });
  await conditions.locator('tr[data-condition]').first().waitFor();
  await markDocument(page);
  step('break-bundle');
  const blocked = conditions.locator('tr[data-condition="ReconcileBlocked"]');
  await blocked.getByText(/team-a-missing/).waitFor();
  await assertSameDocument(page);
  await blocked.scrollIntoViewIfNeeded();
  await shot(page, 'condition-live');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
  const attention = page.getByRole('region', { name: /attention/i });
  await attention.getByText('team-a', { exact: false }).first().waitFor();
  await attention.getByText(/team-a-missing/).first().waitFor();
  await attention.getByText('Blocked').first().waitFor();
  await shot(page, 'overview-attention');
});
