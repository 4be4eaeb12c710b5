/**
 * The API reference: `npm run docs` builds one self-contained HTML file from the bundled spec with
 * Redocly (docs/api/index.html), the service serves it at GET /docs, and it lists every operation.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { routes } from '../generated/routes.js';
import { startService, type RunningService } from './support/service.js';

const spec = parse(readFileSync('generated/openapi.yaml', 'utf8')) as {
  info: { description: string };
  paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
};
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
    .map(([method, operation]) => ({ method, path, operationId: operation.operationId!, summary: operation.summary! })),
);

/** Every operation of the spec is in the reference (Redoc embeds the spec and renders each operation from it). */
function expectEveryOperation(html: string) {
  expect(operations.map((o) => o.operationId).sort()).toEqual(routes.map((r) => r.operationId).sort());
  const missing = operations.filter((o) => !html.includes(`"operationId":"${o.operationId}"`) || !html.includes(o.summary));
  expect(missing.map((o) => `${o.method.toUpperCase()} ${o.path} (${o.operationId})`)).toEqual([]);
}

describe('the API reference', () => {
  let running: RunningService;

  beforeAll(async () => {
    const built = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn('npm', ['run', 'docs'], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk));
      child.on('close', (code) => resolve({ code, output }));
    });
    if (built.code !== 0) throw new Error(`npm run docs failed:\n${built.output}`);
    running = await startService({ runtime: 'simulated' });
  }, 60_000);
  afterAll(async () => {
    await running?.close();
  });

  it('is built by npm run docs as one self-contained HTML file listing every operation', () => {
    const html = readFileSync('docs/api/index.html', 'utf8');
    expect(html).toContain('<title>Session hosting API reference</title>');
    expect(html).not.toMatch(/<script[^>]*\ssrc=/); // --inlineBundle: Redoc is inline, the page works offline
    expect(html).not.toContain('cdn.redoc.ly'); // nor does its logo come from a CDN
    expectEveryOperation(html);
  });

  it('is served at /docs by the service, listing every operation', async () => {
    // Needs the server's GET /docs route (see the client/CLI/docs section of README.md).
    for (const path of ['/docs', '/docs/']) {
      const response = await fetch(`${running.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expectEveryOperation(await response.text());
    }
  });

  it('documents the sandbox and has a quick start', () => {
    // Needs the quick-start text in the spec's info.description (spec/openapi.yaml).
    const html = readFileSync('docs/api/index.html', 'utf8');
    expect(html).toContain('X-Sandbox-Status');
    expect(html).toContain('npm run sandbox');
    expect(spec.info.description).toMatch(/## Quick start/);
    expect(spec.info.description).toMatch(/## Sandbox/);
  });
});
