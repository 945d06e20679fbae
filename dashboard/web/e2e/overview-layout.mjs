// Every page photographed at 1280x720 and 1920x1080 (a build artifact), the brood pages not scrolling sideways, and
// the Overview's layout facts checked at both: the activity column is not squeezed, no event type wraps, a digest is
// shortened and copies its full value.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoSidewaysScroll, BASE, check, login, run } from './browser.mjs';

const PAGES = process.env.VARROA_E2E_PAGES || 'target/screenshots';
const RUN = process.env.VARROA_E2E_RUN;
const DIGEST = process.env.VARROA_E2E_DIGEST;
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
];

/** Each page, and what shows it has loaded. */
const EVERY_PAGE = [
  { name: 'overview', path: '/ui/', ready: (page) => page.locator('[data-chart="builds-per-hour"] canvas') },
  { name: 'controllers', path: '/ui/controllers', ready: (page) => page.locator('tr[data-controller]').first() },
  {
    name: 'controller',
    path: '/ui/controllers/eu-1/ci/team-a',
    ready: (page) => page.getByRole('table', { name: 'Conditions' }).locator('tr[data-condition]').first(),
  },
  { name: 'run', path: `/ui/runs/${RUN}`, ready: (page) => page.getByText('team-a/app/main').first() },
  { name: 'activity', path: '/ui/activity', ready: (page) => page.getByRole('list', { name: 'Activity' }) },
  { name: 'clusters', path: '/ui/clusters', ready: (page) => page.locator('[data-cluster-row]').first() },
  { name: 'broodoperations', path: '/ui/broodoperations', ready: (page) => page.locator('tr[data-operation]').first() },
  {
    name: 'broodoperation',
    path: '/ui/broodoperations/eu-1/ci/weekly-restart',
    ready: (page) => page.getByRole('table', { name: 'Targets' }).locator('tr[data-target]').first(),
  },
  { name: 'schedules', path: '/ui/schedules', ready: (page) => page.locator('tr[data-job-schedule]').first() },
];

/** Pages whose tables must scroll inside their own box rather than widen the page. */
const NO_SIDEWAYS_SCROLL = new Set(['broodoperations', 'broodoperation', 'schedules']);

/** No event type on the page is taller than one line or cut off at its box. */
async function assertNoKindWraps(page, where) {
  const wrapped = await page.locator('.timeline .kind').evaluateAll((kinds) =>
    kinds
      .filter((kind) => {
        const line = parseFloat(getComputedStyle(kind).lineHeight);
        return kind.getBoundingClientRect().height > line * 1.5 || kind.scrollWidth > kind.clientWidth + 1;
      })
      .map((kind) => kind.textContent),
  );
  check(wrapped.length === 0, `${where}: event types wrap or are cut: ${wrapped.join(', ')}`);
  check((await page.locator('.timeline .kind').count()) > 0, `${where}: the timeline shows no event at all`);
}

async function box(page, selector) {
  const found = await page.locator(selector).first().boundingBox();
  check(found, `${selector} is not on the page`);
  return found;
}

async function assertOverviewLayout(page, size) {
  const where = `overview at ${size.width}x${size.height}`;
  const recent = page.getByRole('list', { name: 'Recent activity' });
  await recent.locator(`[data-digest="${DIGEST}"]`).first().waitFor();
  await page.locator('[data-chart="queue-to-start"] canvas').waitFor();
  await assertNoSidewaysScroll(page, where);
  await assertNoKindWraps(page, where);

  const activity = await box(page, '.recent-card');
  const attention = await box(page, '.attention-card');
  const charts = await box(page, '.charts-card');
  // two columns at 1280 (activity is one of them), three at 1920
  const share = size.width >= 1600 ? 0.3 : 0.4;
  check(activity.width >= share * size.width, `${where}: Recent activity is ${Math.round(activity.width)} px wide, `
    + `under ${share * 100} % of the window`);
  check(activity.x > attention.x + attention.width - 1, `${where}: Recent activity should sit right of Needs attention`);
  if (size.width >= 1600) {
    check(charts.x > attention.x + attention.width - 1 && charts.x + charts.width <= activity.x + 1,
      `${where}: the charts should sit between Needs attention and Recent activity`);
    const layout = await box(page, '.overview-layout');
    check(layout.width >= size.width - 80, `${where}: the layout is ${Math.round(layout.width)} px of ${size.width}`);
  } else {
    check(charts.y > attention.y, `${where}: the charts should sit under Needs attention`);
  }
  const strip = page.getByRole('region', { name: 'Cluster health' });
  check((await strip.locator('[data-cluster]').count()) >= 2, `${where}: the cluster strip should show both clusters`);

  // the digest: shortened on screen, whole in its title and on the clipboard after a click
  const digest = recent.locator(`[data-digest="${DIGEST}"]`).first();
  const shown = (await digest.locator('code').innerText()).trim();
  check(/^sha256:[0-9a-f]{8}…$/.test(shown), `${where}: the digest should read sha256:<8 hex>…, got ${shown}`);
  check((await digest.getAttribute('title')) === DIGEST, `${where}: the digest's title should be the full value`);
  const digestBox = await digest.boundingBox();
  check(digestBox.height < 40, `${where}: the digest should take one line, it is ${digestBox.height} px tall`);
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await digest.click();
  await page.locator(`[data-digest="${DIGEST}"][data-copied="yes"]`).first().waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(copied === DIGEST, `${where}: a click should copy ${DIGEST}, the clipboard holds ${copied}`);
}

await run('overview-layout', async ({ page, context }) => {
  check(RUN && DIGEST, 'VARROA_E2E_RUN and VARROA_E2E_DIGEST are set by DashboardBrowserIT');
  mkdirSync(PAGES, { recursive: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(BASE).origin });
  await login(page, '/ui/');
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const { name, path, ready } of EVERY_PAGE) {
      await page.goto(BASE + path);
      await ready(page).waitFor();
      if (name === 'overview') await assertOverviewLayout(page, size);
      if (name === 'activity') await assertNoKindWraps(page, `activity at ${size.width}x${size.height}`);
      if (NO_SIDEWAYS_SCROLL.has(name)) await assertNoSidewaysScroll(page, `${name} at ${size.width}x${size.height}`);
      await page.screenshot({ path: join(PAGES, `${name}-${size.width}x${size.height}.png`) });
    }
  }
});
