// The browser side of DashboardPageBenchmark (benchmarks/): Controllers page load times with 1,000 controllers and
// the page's JavaScript heap while live activity arrives. Prints "measure: NAME VALUE UNIT" lines for the harness.
import { check, login, open, shot, step } from '../e2e/browser.mjs';

const CONTROLLERS = Number(process.env.VARROA_BENCH_CONTROLLERS || 1000);
const ACTIVITY_SECONDS = Number(process.env.VARROA_BENCH_ACTIVITY_SECONDS || 600);
const LOADS = 7;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const heap = async (cdp) => {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { heap: value('JSHeapUsedSize'), nodes: value('Nodes'), listeners: value('JSEventListeners') };
};

const { browser, page } = await open();
try {
  await login(page, '/ui/controllers');
  const base = page.url().replace(/\/ui\/.*$/, '');
  const firstRender = [];
  const interactive = [];
  const contentfulPaint = [];
  for (let i = 0; i < LOADS; i++) {
    await page.goto(`${base}/ui/controllers`);
    await page.waitForFunction(() => window.__varroaTiming && window.__varroaTiming.interactive > 0, null,
      { timeout: 60_000 });
    const timing = await page.evaluate(() => ({
      ...window.__varroaTiming,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
      rows: document.querySelectorAll('tr[data-controller]').length,
    }));
    console.log(`load ${i + 1}: first render ${timing.firstRender.toFixed(0)} ms, interactive `
      + `${timing.interactive.toFixed(0)} ms, first contentful paint ${timing.fcp.toFixed(0)} ms, ${timing.rows} rows `
      + 'in the DOM');
    check(timing.rows > 0, 'the Controllers page rendered no rows');
    if (i > 0) { // the first load fills the HTTP cache; the later ones are what a returning user sees
      firstRender.push(timing.firstRender);
      interactive.push(timing.interactive);
      contentfulPaint.push(timing.fcp);
    }
  }
  await shot(page, `controllers-${CONTROLLERS}`);
  console.log(`measure: controllers_page_first_render_median ${median(firstRender).toFixed(0)} ms`);
  console.log(`measure: controllers_page_interactive_median ${median(interactive).toFixed(0)} ms`);
  console.log(`measure: controllers_page_first_contentful_paint_median ${median(contentfulPaint).toFixed(0)} ms`);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${base}/ui/activity`);
  // no record store here, so the timeline starts empty: wait for the live stream instead of its first item
  await page.locator('[data-stream-state="live"]').waitFor({ timeout: 60_000 });
  const before = await heap(cdp);
  console.log(`activity page open: heap ${(before.heap / 1048576).toFixed(1)} MiB, ${before.nodes} DOM nodes`);
  step('activity');
  const started = Date.now();
  while (Date.now() - started < ACTIVITY_SECONDS * 1000) {
    await page.waitForTimeout(Math.min(60_000, ACTIVITY_SECONDS * 1000 - (Date.now() - started)));
    const now = await heap(cdp);
    const items = await page.locator('[data-activity-kind]').count();
    console.log(`after ${Math.round((Date.now() - started) / 1000)} s: heap ${(now.heap / 1048576).toFixed(1)} MiB, `
      + `${now.nodes} DOM nodes, ${now.listeners} listeners, ${items} items shown`);
  }
  const after = await heap(cdp);
  const shown = await page.locator('[data-activity-kind]').count();
  check(shown > 0, 'no live activity arrived');
  await shot(page, 'activity-after-live');
  console.log(`measure: activity_page_heap_start ${(before.heap / 1048576).toFixed(1)} MiB`);
  console.log(`measure: activity_page_heap_after_${ACTIVITY_SECONDS}s ${(after.heap / 1048576).toFixed(1)} MiB`);
  console.log(`measure: activity_page_dom_nodes_after_${ACTIVITY_SECONDS}s ${after.nodes} nodes`);
} finally {
  await browser.close();
}
