// What every end-to-end script shares: Debian's Chromium driven by playwright-core (never a downloaded browser),
// the login through the OpenID provider's own form, screenshots, and the "step:" lines the JUnit side acts on.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const BASE = required('VARROA_E2E_URL');
const SCREENSHOTS = process.env.VARROA_E2E_SCREENSHOTS || 'target/e2e-screenshots';
// Without the background-networking flags Chromium keeps dialling out of this closed network.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
export const WAIT = 30_000;

function required(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: the JUnit test (DashboardBrowserIT) passes it`);
  }
  return value;
}

/** A fresh browser (playwright gives each launch a new empty profile) and a desktop-sized page. */
export async function open(viewport = { width: 1280, height: 720 }) {
  const browser = await chromium.launch({
    executablePath: process.env.VARROA_CHROMIUM || '/usr/bin/chromium', headless: true, args: FLAGS,
  });
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  return { browser, context, page };
}

/** Opens a dashboard path; the client sends an unknown visitor to the provider, whose form we fill in. */
export async function login(page, path) {
  await page.goto(BASE + path);
  const username = page.locator('input[name="username"]');
  await username.waitFor();
  await username.fill(required('VARROA_E2E_USER'));
  await page.locator('input[name="password"]').fill(required('VARROA_E2E_PASSWORD'));
  await Promise.all([page.waitForURL((url) => url.href.startsWith(BASE + '/ui/')), page.keyboard.press('Enter')]);
  await page.locator('h1').first().waitFor();
}

export async function shot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** Tells the JUnit side to change the world now; it has done so when its next line is read. */
export function step(name) {
  console.log(`step: ${name}`);
}

/** Marks the document, so a later check can tell the change arrived without a reload. */
export async function markDocument(page) {
  await page.evaluate(() => { window.__varroaE2eMark = 'same document'; });
}

export async function assertSameDocument(page) {
  const mark = await page.evaluate(() => window.__varroaE2eMark);
  if (mark !== 'same document') {
    throw new Error('the page was reloaded: the change should have arrived live');
  }
}

/** The page does not scroll sideways: wide content scrolls inside its own box. */
export async function assertNoSidewaysScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, width: window.innerWidth,
  }));
  if (scroll > width + 1) {
    throw new Error(`${what}: the page is ${scroll} px wide in a ${width} px window`);
  }
}

export function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

/** Runs a script body; a failure leaves a screenshot and exits 1 with the reason. */
export async function run(name, body) {
  const session = await open();
  try {
    await body(session);
    console.log(`ok: ${name}`);
  } catch (error) {
    console.log(`failed: ${name}: ${error.stack || error}`);
    await shot(session.page, `failed-${name}`).catch(() => {});
    process.exitCode = 1;
  } finally {
    await session.browser.close();
  }
}
