// Filters and search live in the URL: a shared link opens the same view, and `/` focuses the search.
import { check, login, run, shot } from './browser.mjs';

const rows = (page) => page.getByRole('table', { name: 'Controllers' }).locator('tr[data-controller]');

await run('filter-url', async ({ page }) => {
  await login(page, '/ui/controllers?q=sandbox');
  await page.locator('tr[data-controller="eu-1/ci/sandbox"]').waitFor();
  await page.locator('tr[data-controller="eu-1/ci/team-a"]').waitFor({ state: 'detached' });
  check(await rows(page).count() === 1, 'q=sandbox should keep one row');
  check(await page.getByRole('searchbox', { name: 'Search controllers' }).inputValue() === 'sandbox',
    'the search box should show the q of the URL');

  await page.goto(page.url().replace(/\/ui\/.*$/, '/ui/controllers'));
  await page.locator('tr[data-controller="eu-1/ci/team-a"]').waitFor();
  await page.locator('body').click();
  await page.keyboard.press('/');
  const search = page.getByRole('searchbox', { name: 'Search controllers' });
  check(await search.evaluate((element) => element === document.activeElement), '/ should focus the search box');
  await page.keyboard.type('team-a');
  await page.waitForURL(/[?&]q=team-a/);
  await page.locator('tr[data-controller="eu-1/ci/sandbox"]').waitFor({ state: 'detached' });
  await shot(page, 'controllers-filtered');

  // the same link in a new page opens the same view
  const shared = page.url();
  const other = await page.context().newPage();
  await other.goto(shared);
  await other.locator('tr[data-controller="eu-1/ci/team-a"]').waitFor();
  check(await rows(other).count() === 1, `the shared link ${shared} should show the same one row`);
  await other.close();

  // a phase no controller has: the empty state says so
  await page.goto(page.url().replace(/\/ui\/.*$/, '/ui/controllers?phase=Hibernated'));
  await page.getByText(/no controllers? (match|to show)/i).first().waitFor();
  check(await rows(page).count() === 0, 'phase=Hibernated should keep no row');

  // sorting is in the URL too
  await page.goto(page.url().replace(/\/ui\/.*$/, '/ui/controllers'));
  await page.locator('tr[data-controller="eu-1/ci/team-a"]').waitFor();
  const before = await rows(page).first().getAttribute('data-controller');
  await page.getByRole('button', { name: 'Sort by Name', exact: true }).click();
  await page.waitForURL(/[?&]dir=/);
  let after = await rows(page).first().getAttribute('data-controller');
  if (after === before) {
    await page.getByRole('button', { name: 'Sort by Name', exact: true }).click();
    await page.waitForFunction((first) => document.querySelector('tr[data-controller]')?.getAttribute('data-controller') !== first, before);
    after = await rows(page).first().getAttribute('data-controller');
  }
  check(after !== before, 'sorting by name should change the order');
});
