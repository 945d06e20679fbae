// The Spec Editor: a Form edit shows in the YAML tab, a YAML edit shows in the Form tab, and a mite image change is
// marked as rolling the pod (restart class) before anyone commits it; another change is marked as no restart.
import { check, login, run, shot } from './browser.mjs';

const CORE = process.env.VARROA_E2E_CORE;

await run('spec-editor', async ({ page }) => {
  await login(page, `/ui/controllers/${CORE}/ci/team-a?tab=spec`);
  await page.getByRole('heading', { name: 'Spec Editor' }).waitFor();
  const image = page.locator('#spec-miteSpec-image');
  await image.waitFor();
  check((await page.locator('#spec-versionProfileRef-name').inputValue()) === 'lts', 'the form starts from the spec in force');
  check((await page.locator('[data-restart-field]').count()) === 0, 'nothing is marked before an edit');

  // Form -> YAML, marked as restart class at once and confirmed by the check
  await image.fill('ghcr.io/varroa/mite:0.2.0');
  await page.locator('[data-restart-field="spec.miteSpec.image"]').waitFor();
  await page.locator('[data-change-class="restart"]').waitFor();
  await page.locator('li[data-change="spec.miteSpec.image"][data-class="restart"]').waitFor();
  await shot(page, 'spec-editor-form');

  await page.getByRole('tab', { name: 'YAML' }).last().click();
  const yaml = page.getByLabel('Controller manifest YAML');
  const text = await yaml.inputValue();
  check(text.includes('  miteSpec:\n    image: ghcr.io/varroa/mite:0.2.0\n'), `the YAML tab shows the form's edit:\n${text}`);
  check(text.includes('  versionProfileRef:\n    name: lts\n'), `the YAML keeps the rest of the spec:\n${text}`);

  // YAML -> Form
  await yaml.fill(text.replace('mite:0.2.0', 'mite:0.3.0') + '  hibernation:\n    idleMinutes: 45\n');
  await page.locator('li[data-change="spec.hibernation"][data-class="reloadable"]').waitFor();
  await shot(page, 'spec-editor-yaml');
  await page.getByRole('tab', { name: 'Form' }).click();
  await page.waitForFunction(() => document.querySelector('#spec-miteSpec-image')?.value === 'ghcr.io/varroa/mite:0.3.0');
  check((await page.locator('#spec-hibernation-idleMinutes').inputValue()) === '45', 'the form shows the YAML edit');
  await page.locator('[data-restart-field="spec.miteSpec.image"]').waitFor();
  check((await page.locator('[data-restart-field="spec.hibernation.idleMinutes"]').count()) === 0,
    'a hibernation change is not marked as rolling the pod');

  // back to the spec in force: nothing to mark
  await page.getByRole('button', { name: 'Start over from the spec in force' }).click();
  await page.waitForFunction(() => document.querySelector('#spec-miteSpec-image')?.value === '');
  await page.locator('[data-restart-field]').first().waitFor({ state: 'detached' });
  check((await page.locator('[data-change-class="restart"]').count()) === 0, 'no restart banner without a change');
});
