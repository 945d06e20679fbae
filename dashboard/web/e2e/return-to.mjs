// Issue 24, finding 6: whatever return_to a login link carries, the browser ends on the dashboard's own origin.
// Every request to another host is recorded and refused, so a redirect off-site fails the script even if the host
// does not resolve; each login goes through the provider's own form.
import { BASE, check, run, shot, WAIT } from './browser.mjs';

const ORIGIN = new URL(BASE).origin;
const EVIL = 'evil.example';

// return_to values as the BFF reads them (the link carries them percent-encoded)
const VALUES = [
  `//${EVIL}`, `/\\${EVIL}`, `/%5C${EVIL}`, `/%5c${EVIL}`, `%2F%2F${EVIL}`, `/%2F/${EVIL}`, `\\\\${EVIL}`,
  `\\/${EVIL}`, `/\\/${EVIL}`, `/\t/${EVIL}`, `/\n/${EVIL}`, `/\r/${EVIL}`, `/\r\n/${EVIL}`, `\t//${EVIL}`,
  `/%09/${EVIL}`, `/%0A/${EVIL}`, `/%0D/${EVIL}`, `https://${EVIL}`, `http:\\\\${EVIL}`,
  'javascript:alert(document.domain)', `/..//${EVIL}`, `/%2e%2e//${EVIL}`, `///${EVIL}`, `////${EVIL}`,
  `/\u3000/${EVIL}`, `/\uFF0F/${EVIL}`, `\uFF0F\uFF0F${EVIL}`, `/\u2215/${EVIL}`, `@${EVIL}`, EVIL, '',
  `/${'a'.repeat(5000)}`,
];
// the same kinds of link as someone would type them, decoded once by the BFF
const TYPED = [
  `return_to=/%5C${EVIL}`, `return_to=//${EVIL}`, `return_to=/%09/${EVIL}`, `return_to=%2F%2F${EVIL}`,
  `return_to=/%2F/${EVIL}`, `return_to=%5C%5C${EVIL}`, `return_to=/%0D%0A/${EVIL}`, `return_to=/%E3%80%80/${EVIL}`,
  `return_to=/%EF%BC%8F/${EVIL}`, `return_to=https:%2F%2F${EVIL}`, 'return_to=',
];

/** Follows a login link through the provider's form; returns the URL the browser settles on. */
async function loginWith(page, query) {
  await page.goto(`${BASE}/auth/login?${query}`);
  const username = page.locator('input[name="username"]');
  const home = (url) => url.origin === ORIGIN && !url.pathname.startsWith('/auth/');
  // the provider's form, unless the provider still knows the person
  await Promise.race([username.waitFor(), page.waitForURL(home)]);
  if (await username.isVisible()) {
    await username.fill(process.env.VARROA_E2E_USER);
    await page.locator('input[name="password"]').fill(process.env.VARROA_E2E_PASSWORD);
    await Promise.all([page.waitForURL(home), page.keyboard.press('Enter')]);
  }
  await page.locator('h1').first().waitFor();
  return new URL(page.url());
}

await run('return-to', async ({ page, context }) => {
  const offSite = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === 'localhost' || url.hostname === '127.0.0.1') {
      return route.continue();
    }
    offSite.push(url.href);
    return route.abort();
  });
  const queries = [...VALUES.map((value) => 'return_to=' + encodeURIComponent(value)), ...TYPED];
  const wrong = [];
  for (const query of queries) {
    const landed = await loginWith(page, query);
    if (landed.origin !== ORIGIN || landed.pathname.includes(EVIL) || landed.href.includes(EVIL)) {
      wrong.push(`${query.slice(0, 80)} -> ${landed.href.slice(0, 120)}`);
    }
  }
  check(offSite.length === 0, `the browser tried to leave the dashboard: ${offSite.join(', ')}`);
  check(wrong.length === 0, `logins that did not land on the dashboard: ${wrong.join('; ')}`);

  // a path of the dashboard itself is kept, with its query
  const kept = await loginWith(page, 'return_to=' + encodeURIComponent('/ui/controllers?namespace=ci&q=team'));
  check(kept.pathname === '/ui/controllers' && kept.searchParams.get('q') === 'team',
    `a return_to on the dashboard should be kept, landed on ${kept.href}`);
  await page.locator('tr[data-controller="eu-1/ci/team-a"]').waitFor({ timeout: WAIT });
  await shot(page, 'return-to-kept');
  console.log(`checked ${queries.length} return_to links`);
});
