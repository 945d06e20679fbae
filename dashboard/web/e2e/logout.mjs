// Logging out is a POST from the dashboard's own page: GET /auth/logout only asks to confirm, and the header's
// Log out button ends the session (the next page sends the browser to the provider's form again).
import { BASE, check, login, run, shot } from './browser.mjs';

/** GET /me from the page itself, with its session cookie. */
const meStatus = (page) => page.evaluate(() => fetch('/me', { credentials: 'same-origin' }).then((r) => r.status));

await run('logout', async ({ page }) => {
  await login(page, '/ui/');

  // a link or an image pointing at /auth/logout logs nobody out
  await page.goto(`${BASE}/auth/logout`);
  await page.getByRole('heading', { name: 'Log out of Varroa?' }).waitFor();
  await shot(page, 'logout-confirm');
  // the confirmation page may fetch nothing (its CSP), so ask from a plain page of the BFF
  await page.goto(`${BASE}/healthz`);
  const me = await meStatus(page);
  check(me === 200, `GET /auth/logout should not end the session, /me answered ${me}`);

  // a POST from another origin (no Origin header of ours) is refused
  const crossSite = await page.request.post(`${BASE}/auth/logout`, { headers: { Origin: 'https://evil.example' } });
  check(crossSite.status() === 403, `a logout from another origin should be refused, got ${crossSite.status()}`);
  check(await meStatus(page) === 200, 'the refused logout should leave the session');

  await page.goto(`${BASE}/ui/`);
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await page.locator('input[name="username"]').waitFor();
  await page.goto(`${BASE}/healthz`);
  const after = await meStatus(page);
  check(after === 401, `after Log out /me should answer 401, got ${after}`);
  await shot(page, 'logged-out');
});
