/**
 * The admin panel in a real browser: playwright-core drives Debian's Chromium against the real
 * service (in-process, loopback), through the journey: sign in, onboard a user, Users ->
 * row actions -> Edit, add a token, use it on the public API, reveal it, disable it, read the
 * audit log. Saves a screenshot of each page at laptop and phone width in
 * test-results/screenshots/. Skipped, saying why, where /usr/bin/chromium is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { caller } from '../support/http.js';
import { startService, TEST_ADMIN, testFleet, type RunningService } from '../support/service.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`SKIPPED test/browser/admin-panel.test.ts: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does)`);
}
const SHOTS = 'test-results/screenshots';
const VIEWPORTS = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

describe.skipIf(!hasChromium)('admin panel in Chromium', () => {
  const contract = contractFetch();
  let running: RunningService;
  let browser: Browser;
  let page: Page;
  let base: string;
  let userId: string;
  let tokenValue: string;

  const shoot = async (name: string) => {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
      // Nothing a person must reach is cut off: row actions within the screen, checkbox labels within their box.
      const clipped = await page.evaluate(`[...document.querySelectorAll('table.with-actions tr > :last-child')]
        .filter((cell) => cell.getBoundingClientRect().right > window.innerWidth + 1).length`);
      expect(clipped, `${name} at ${width} width: action cells past the screen's edge`).toBe(0);
      const overflowing = await page.evaluate(`[...document.querySelectorAll('label.check')]
        .filter((label) => label.scrollWidth > label.clientWidth + 1).map((label) => label.textContent)`);
      expect(overflowing, `${name} at ${width} width: checkbox labels overflowing`).toEqual([]);
    }
    await page.setViewportSize(VIEWPORTS.laptop);
  };

  beforeAll(async () => {
    if (!existsSync('admin/dist/index.html')) {
      const build = spawnSync('node_modules/.bin/vite', ['build', '--config', 'admin/vite.config.ts'], { stdio: 'inherit' });
      if (build.status !== 0) throw new Error('vite build of the admin panel failed');
    }
    mkdirSync(SHOTS, { recursive: true });
    // A warm pool for the Locations page to show and size.
    running = await startService({ runtime: 'simulated' }, { fleet: testFleet((fleet) => (fleet.pools = [{ location: 'local-a', image: 'echo', tag: 'latest', warm: 1 }])) });
    base = running.url;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: VIEWPORTS.laptop });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    expect(contract.violations).toEqual([]);
  });

  it('refuses a wrong password without saying which field was wrong, then signs in', async () => {
    await page.goto(`${base}/admin/`);
    await page.getByLabel('Email').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('wrong email or password');
    await shoot('sign-in');

    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'gsh_admin');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });
  });

  it('onboards a user with a quota', async () => {
    await page.getByRole('link', { name: 'Create user' }).click();
    await page.getByLabel('Name').fill('Browser Studio');
    await page.getByLabel('Email').fill('ops@browser.example');
    await page.getByLabel('Quota (minutes)').fill('90');
    await page.getByRole('checkbox', { name: 'local-b' }).check();
    await shoot('create-user');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('heading', { name: 'Update User' }).waitFor();
    userId = /\/admin\/users\/(acc_[0-9a-z]+)$/.exec(page.url())![1]!;
    await expect.poll(() => page.locator('.facts').textContent()).toContain('of 90 minutes used');
  });

  it('finds the account in Users and opens Edit from the row actions menu', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByLabel('Search').fill('browser');
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Browser Studio' });
    await row.waitFor();
    // Keyboard: focus the menu button, open it with ArrowDown, the first item is focused.
    await row.getByRole('button', { name: 'Actions for Browser Studio' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Edit');
    await shoot('users');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Update User' }).waitFor();
    expect(page.url()).toBe(`${base}/admin/users/${userId}`);
  });

  it('adds a token with two scopes and a 1h expiry and shows its value once', async () => {
    const tokens = page.getByRole('region', { name: 'API Tokens' });
    await tokens.getByLabel('Token name').fill('matchmaker');
    await tokens.getByRole('checkbox', { name: 'session:read' }).check();
    await tokens.getByRole('checkbox', { name: 'logs:read' }).check();
    await tokens.getByLabel('Expires after').selectOption('1h');
    await tokens.getByRole('button', { name: 'Add token' }).click();
    tokenValue = (await page.locator('#new-token-value').textContent())!.trim();
    expect(tokenValue).toMatch(/^gsh_[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy the new token' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(tokenValue);
    const row = tokens.getByRole('row').filter({ hasText: 'matchmaker' });
    await expect.poll(() => row.textContent()).toContain('session:read, logs:read');
    expect(await row.textContent()).toContain(`gsh_…${tokenValue.slice(-4)}`);
    await shoot('update-user');
  });

  it('the value works on the public API within its scopes', async () => {
    const call = caller(base, tokenValue, contract);
    expect((await call('GET', '/session')).status).toBe(200);
    const start = await call('POST', '/session', { body: { id: 'browser-1', location: 'local-a', image: 'echo' } });
    expect(start.status).toBe(401);
    expect(start.json.details).toBe('token lacks scope session:start');
  });

  it('after a reload the value is masked; Reveal shows the same value', async () => {
    await page.reload();
    const row = page.getByRole('region', { name: 'API Tokens' }).getByRole('row').filter({ hasText: 'matchmaker' });
    await row.waitFor();
    expect(await page.locator('#new-token-value').count()).toBe(0);
    expect(await row.locator('code').textContent()).toBe(`gsh_…${tokenValue.slice(-4)}`);
    expect(await row.textContent()).not.toContain(tokenValue);
    await row.getByRole('button', { name: 'Reveal the value of matchmaker' }).click();
    await expect.poll(() => row.locator('code').textContent()).toBe(tokenValue);
  });

  it('Disable makes the API answer 401', async () => {
    const row = page.getByRole('region', { name: 'API Tokens' }).getByRole('row').filter({ hasText: 'matchmaker' });
    await row.getByRole('button', { name: 'Disable matchmaker' }).click();
    await expect.poll(() => row.textContent()).toContain('disabled');
    const call = caller(base, tokenValue, contract);
    const after = await call('GET', '/session');
    expect(after.status).toBe(401);
    expect(after.json.details).toBe('token is disabled');
  });

  it('the audit log lists each step', async () => {
    const audit = page.getByRole('region', { name: 'Audit log' });
    await expect.poll(async () => (await audit.getByRole('row').allTextContents()).length).toBeGreaterThanOrEqual(5);
    const rows = (await audit.getByRole('row').allTextContents()).slice(1);
    const actions = rows.map((r) => /(user created|token created|token revealed|token disabled)/.exec(r)?.[1]);
    // Newest first.
    expect(actions).toEqual(['token disabled', 'token revealed', 'token created', 'user created']);
    expect(rows.every((r) => r.includes(TEST_ADMIN.email))).toBe(true);
    await shoot('update-user-audit');
  });

  it('shows Locations, locks a node for maintenance, and placement honours it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Locations' }).click();
    await page.getByRole('button', { name: 'Lock local-b-1' }).click();
    await page.getByRole('button', { name: 'Unlock local-b-1' }).waitFor();
    await shoot('locations');
    const call = caller(base, running.token, contract);
    const refused = await call('POST', '/session', { body: { id: 'browser-locked', location: 'local-b', image: 'echo' } });
    expect(refused.status).toBe(420);
    expect(refused.json.details).toBe('locked');
    await page.getByRole('button', { name: 'Unlock local-b-1' }).click();
    await page.getByRole('button', { name: 'Lock local-b-1' }).waitFor();
    expect((await call('POST', '/session', { body: { id: 'browser-2', location: 'local-b', image: 'echo' } })).status).toBe(201);
  });

  it('shows the warm pools on Locations and sizes one', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Locations' }).click();
    const pool = 'local-a/echo:latest';
    const row = page.getByRole('row').filter({ hasText: pool });
    await row.waitFor();
    await row.getByRole('spinbutton', { name: `Size of ${pool}` }).fill('2');
    await row.getByRole('button', { name: `Set the size of ${pool}` }).click();
    await row.getByRole('cell', { name: 'panel' }).waitFor();
    await expect.poll(async () => (await running.service.store.warmServers.all()).length, { timeout: 10_000 }).toBe(2);
  });

  it('shows Sessions with state and ports, the logs tail, and stops one', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sessions' }).click();
    const row = page.getByRole('row').filter({ hasText: 'browser-2' });
    await row.waitFor();
    await row.getByRole('button', { name: 'Logs of browser-2' }).click();
    await page.getByRole('heading', { name: 'Logs of browser-2 (tail)' }).waitFor();
    await shoot('sessions');
    await row.getByRole('button', { name: 'Stop browser-2' }).click();
    await expect.poll(async () => (await caller(base, running.token, contract)('GET', '/session/browser-2')).json.status).toMatch(/^(draining|shuttingdown|exited)$/);
  });

  it('a page on another port of the host is sent the session cookie, which alone opens nothing, and cannot sign the panel out', async () => {
    // A game server on the panel's host (the process runtime's sessions are): any page of it the
    // operator opens can send the browser to its own /admin path, and cookies know no ports.
    const sent: string[] = [];
    const game = createServer((request, response) => {
      sent.push(request.headers.cookie ?? '');
      // And sets one of its own for the host, on a longer path than the panel's: sent first.
      response.setHeader('Set-Cookie', `gsh_admin=${'A'.repeat(43)}; Path=/admin/api; Max-Age=86400; HttpOnly`);
      response.end('ok');
    });
    await new Promise<void>((resolve) => game.listen(0, new URL(base).hostname, resolve));
    try {
      const other = await page.context().newPage();
      await other.goto(`http://${new URL(base).hostname}:${(game.address() as AddressInfo).port}/admin/`);
      await other.close();
      const stolen = /gsh_admin=[^;\s]+/.exec(sent.join(';'))?.[0];
      expect(stolen, 'the browser sent the cookie to the other port').toBeDefined();
      const replayed = await fetch(`${base}/admin/api/auth`, { headers: { Cookie: stolen! } });
      expect(replayed.status).toBe(401);
      expect(await replayed.text()).not.toContain('csrf_token');
      // The panel itself still reads with its stored token, past the cookie the other port set.
      await page.reload();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    } finally {
      game.close();
    }
  });

  it('shows Images, and signs out', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Images' }).click();
    await page.getByRole('row').filter({ hasText: 'echo' }).waitFor();
    await shoot('images');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto(`${base}/admin/users`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
