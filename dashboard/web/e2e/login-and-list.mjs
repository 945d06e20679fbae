// Log in, see both demo controllers, open one and read each tab; the same list dark and on a phone.
import { assertNoSidewaysScroll, check, login, open, run, shot, WAIT } from './browser.mjs';

await run('login-and-list', async ({ page, context }) => {
  await login(page, '/ui/');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await shot(page, 'overview');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Controllers' }).click();
  const table = page.getByRole('table', { name: 'Controllers' });
  await table.locator('tr[data-controller="eu-1/ci/sandbox"]').waitFor();
  await table.locator('tr[data-controller="eu-1/ci/team-a"]').waitFor();
  check(await table.locator('tr[data-controller]').count() === 2, 'the list should hold exactly the two controllers');
  await assertNoSidewaysScroll(page, 'controllers at 1280x720');
  await shot(page, 'controllers');

  await table.locator('tr[data-controller="eu-1/ci/team-a"]').getByRole('link', { name: 'team-a' }).click();
  await page.waitForURL(/\/ui\/controllers\/eu-1\/ci\/team-a/);
  await page.getByRole('table', { name: 'Conditions' }).locator('tr[data-condition]').first().waitFor();
  await shot(page, 'controller-overview');

  await page.getByRole('tab', { name: 'YAML' }).click();
  await page.getByText('kind: Controller').first().waitFor();
  await shot(page, 'controller-yaml');
  await page.getByRole('tab', { name: 'Version' }).click();
  await page.getByText('2.555.2').first().waitFor();
  await page.getByText('configuration-as-code').first().waitFor();
  await shot(page, 'controller-version');
  await page.getByRole('tab', { name: 'Runs' }).click();
  await page.getByRole('table', { name: 'Runs' }).locator('tr[data-run]').first().waitFor();
  await shot(page, 'controller-runs');
  check(page.url().includes('tab=runs'), `the tab should be in the URL, got ${page.url()}`);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(page.url().replace(/\/ui\/.*$/, '/ui/controllers'));
  await table.locator('tr[data-controller]').first().waitFor();
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(background !== light, `the dark theme should change the background (dark ${background}, light ${light})`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'controllers-dark');

  const phone = await context.browser().newContext({
    viewport: { width: 375, height: 812 }, storageState: await context.storageState(), isMobile: true,
  });
  phone.setDefaultTimeout(WAIT);
  const small = await phone.newPage();
  await small.goto(page.url());
  await small.getByRole('table', { name: 'Controllers' }).locator('tr[data-controller]').first().waitFor();
  await assertNoSidewaysScroll(small, 'controllers at 375 px');
  await shot(small, 'controllers-phone');
  await phone.close();
});
