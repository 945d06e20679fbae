// The creation wizard: its cluster picker lists only healthy clusters and starts on the core; the form writes the
// Controller manifest, which the picked cluster's operator checks through the BFF (a bad quantity is named with its
// fix); nothing is applied.
import { check, login, run, shot } from './browser.mjs';

const CORE = process.env.VARROA_E2E_CORE;
const HEALTHY = process.env.VARROA_E2E_HEALTHY_MEMBER;
const SILENT = process.env.VARROA_E2E_SILENT_MEMBER;

const EXPECTED = `apiVersion: varroa.dev/v1alpha1
kind: Controller
metadata:
  name: payments
  namespace: ci
spec:
  composedBundleRef:
    name: payments-bundle
  miteSpec:
    image: ghcr.io/varroa/mite:0.1.0
    imagePullPolicy: IfNotPresent
    resources:
      limits:
        memory: 256Mi
`;

await run('wizard', async ({ page }) => {
  await login(page, '/ui/controllers');
  await page.getByRole('link', { name: 'New controller' }).click();
  await page.getByRole('heading', { name: 'New controller' }).waitFor();

  const picker = page.getByLabel('Cluster', { exact: true });
  await picker.waitFor();
  // the silent member is in the registry, so the page knows it and leaves it out on purpose
  await page.locator(`[data-hidden-clusters*="${SILENT}"]`).waitFor();
  const options = await picker.locator('option').evaluateAll((all) => all.map((o) => o.value));
  check(JSON.stringify(options) === JSON.stringify([CORE, HEALTHY]), `the picker lists ${options}, not ${CORE},${HEALTHY}`);
  check((await picker.inputValue()) === CORE, `the picker starts on ${await picker.inputValue()}, not the core ${CORE}`);
  check((await picker.locator('option:checked').innerText()).includes('(core)'), 'the core is tagged as such');

  await page.locator('#wizard-namespace').fill('ci');
  await page.locator('#wizard-name').fill('payments');
  await page.locator('#spec-composedBundleRef-name').fill('payments-bundle');
  await page.locator('#spec-miteSpec-image').fill('ghcr.io/varroa/mite:0.1.0');
  await page.locator('#spec-miteSpec-imagePullPolicy').selectOption('IfNotPresent');
  await page.locator('#spec-miteSpec-resources-limits-memory').fill('256Mi');

  const manifest = page.getByLabel('Controller manifest');
  await page.waitForFunction(
    (expected) => document.querySelector('pre[aria-label="Controller manifest"]')?.textContent === expected,
    EXPECTED,
  ).catch(async () => {
    throw new Error(`the manifest reads:\n${await manifest.innerText()}\nexpected:\n${EXPECTED}`);
  });
  await page.locator(`[data-check="valid"][data-checked-by="${CORE}"]`).waitFor();
  await shot(page, 'wizard');

  await page.locator('#spec-miteSpec-resources-limits-memory').fill('lots');
  const problem = page.locator('[data-problem="spec.miteSpec.resources.limits.memory"]');
  await problem.waitFor();
  check((await problem.innerText()).includes('512Mi'), `the problem names a fix: ${await problem.innerText()}`);
  await page.locator('#spec-miteSpec-resources-limits-memory').fill('256Mi');
  await page.locator('[data-check="valid"]').waitFor();

  await picker.selectOption(HEALTHY);
  await page.locator(`pre[data-cluster="${HEALTHY}"]`).waitFor();
  // the check goes to the picked cluster's operator
  await page.locator(`[data-check="valid"][data-checked-by="${HEALTHY}"]`).waitFor();
  await page.getByText('How to commit it to the bundle repository').click();
  check((await page.locator('.commit-howto').innerText()).includes(HEALTHY), 'the commit steps name the picked cluster');
  check((await page.locator('.commit-howto').innerText()).includes('controllers/ci/payments.yaml'), 'the commit steps name the file');
  await shot(page, 'wizard-member');
});
