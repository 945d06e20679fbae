// The activity timeline is live: an event published on the bus shows up without a reload; filters are in the URL.
import { assertSameDocument, check, login, markDocument, run, shot, step } from './browser.mjs';

await run('activity', async ({ page }) => {
  await login(page, '/ui/activity');
  const timeline = page.getByRole('list', { name: 'Activity' });
  await timeline.waitFor();
  await page.locator('[data-stream-state="live"]').waitFor();
  await markDocument(page);
  step('publish-activity');
  await timeline.getByText('phase Provisioning -> Running').first().waitFor();
  await assertSameDocument(page);
  await shot(page, 'activity');

  await page.goto(page.url().replace(/\/ui\/.*$/, '/ui/activity?controller=team-a'));
  await timeline.waitFor();
  await page.waitForLoadState('networkidle').catch(() => {});
  check(await timeline.getByText('phase Provisioning -> Running').count() === 0,
    'controller=team-a should hide the sandbox event');
});
