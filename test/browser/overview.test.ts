/**
 * The admin panel's Overview page in Chromium (playwright-core, Debian's /usr/bin/chromium):
 * after some starts, a 420 and a stop, its three charts are drawn with data in them. Saves the
 * page to test-results/screenshots/overview-laptop.png (docs/screenshots/overview.png is a copy).
 * Skipped, saying why, without Chromium.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRACE_SAMPLING } from '../../server/config/environment.js';
import { contractFetch } from '../support/contract.js';
import { caller } from '../support/http.js';
import { startService, TEST_ADMIN, testFleet, type RunningService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`SKIPPED test/browser/overview.test.ts: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does)`);

/** The slice of a canvas the check reads (this project typechecks tests without the DOM library). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}

/** Pixels of the chart's canvas in its first series' colour (#1f5fbf): the data uPlot drew, not its axes and grid. */
const drawnPixels = (page: Page, title: string) =>
  page.getByRole('region', { name: title }).locator('canvas').evaluate((element) => {
    const canvas = element as unknown as Canvas;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - 0x1f) < 12 && Math.abs(data[i + 1]! - 0x5f) < 12 && Math.abs(data[i + 2]! - 0xbf) < 12 && data[i + 3]! > 200) drawn++;
    }
    return drawn;
  });

describe.skipIf(!hasChromium)('the Overview page in Chromium', () => {
  const contract = contractFetch();
  let running: RunningService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync('admin/dist/index.html')) {
      const build = spawnSync('node_modules/.bin/vite', ['build', '--config', 'admin/vite.config.ts'], { stdio: 'inherit' });
      if (build.status !== 0) throw new Error('vite build of the admin panel failed');
    }
    // A sample a second; two slots in local-b so a third start there is a 420.
    running = await startService(
      { runtime: 'simulated', observability: { metrics: true, topAccounts: 10, overviewIntervalSeconds: 1, exportTraces: false, traceSampling: DEFAULT_TRACE_SAMPLING } },
      { fleet: testFleet((fleet) => (fleet.locations[1]!.nodes[0]!.capacity = 2)) },
    );
    const call = caller(running.url, running.token, contract);
    for (const [id, location] of [['o-1', 'local-a'], ['o-2', 'local-a'], ['o-3', 'local-b'], ['o-4', 'local-b']] as const) {
      expect((await call('POST', '/session', { body: { id, location, image: 'echo' } })).status).toBe(201);
    }
    expect((await call('POST', '/session', { body: { id: 'o-5', location: 'local-b', image: 'echo' } })).status).toBe(420);
    for (const id of ['o-1', 'o-2', 'o-3', 'o-4']) await waitForStatus(call, id, ['running']);
    expect((await call('DELETE', '/session/o-4')).status).toBe(204);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    expect(contract.violations).toEqual([]);
  });

  it('draws live sessions, start-to-running and 420s, with data in every chart', async () => {
    await page.goto(`${running.url}/admin/overview`);
    await page.getByLabel('Email').fill(TEST_ADMIN.email);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    const sessions = page.getByRole('region', { name: 'Live sessions per location and state' });
    // Wait for a few samples (one a second; the page refreshes every two).
    await expect.poll(() => sessions.getAttribute('data-points'), { timeout: 15_000 }).toMatch(/^([3-9]|\d\d+)$/);
    await expect.poll(() => sessions.locator('.u-legend').textContent()).toContain('local-a running');
    expect(await sessions.locator('.u-legend').textContent()).toContain('local-b running');
    const starts = page.getByRole('region', { name: 'Start to running' });
    expect(await starts.getAttribute('data-series')).toBe('3');
    const rates = page.getByRole('region', { name: 'Starts and 420 answers per minute' });
    expect(await rates.locator('.u-legend').textContent()).toContain('420 answers');
    for (const title of ['Live sessions per location and state', 'Start to running', 'Starts and 420 answers per minute']) {
      expect(await drawnPixels(page, title), title).toBeGreaterThan(20);
    }
    mkdirSync('test-results/screenshots', { recursive: true });
    await page.screenshot({ path: 'test-results/screenshots/overview-laptop.png', fullPage: true });
  });
});
