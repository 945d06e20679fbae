// A running build's console log, followed live to its end.
import { check, login, run, shot, step } from './browser.mjs';

const RUN = process.env.VARROA_E2E_RUN;

await run('live-log', async ({ page }) => {
  await login(page, `/ui/runs/${RUN}`);
  const log = page.locator('pre[aria-label="Console log"]');
  await log.getByText('[Pipeline] stage Build').waitFor();
  await page.locator('[data-log-state="following"]').first().waitFor();
  step('more-log');
  await log.getByText('all 12 tests passed').waitFor();
  step('finish');
  await log.getByText('Finished: SUCCESS').waitFor();
  await page.locator('[data-log-state="complete"]').first().waitFor();
  const text = await log.innerText();
  check(text.indexOf('stage Build') < text.indexOf('stage Test') && text.indexOf('stage Test') < text.indexOf('Finished'),
    `the log should be in order, got:\n${text}`);
  check(text.split('stage Build').length === 2, `each piece once, got:\n${text}`);
  await shot(page, 'run-log');
});
