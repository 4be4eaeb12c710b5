/**
 * Builds everything in generated/ from spec/:
 *   openapi.yaml  the bundled spec (one file every tool reads)
 *   types.ts      openapi-typescript types, with a named type per component schema
 *                 (`Session`, `ErrorCode`...) and a values array per enum (`scopeValues`...)
 *   routes.ts     the component schemas (registered once) and the route table: per operation
 *                 its spec file, method, path, security, required scopes, schemas
 *   handlers.ts   the handler interface, one method per operationId
 *   errors.ts     the HTTP status of each error code (ErrorCode's x-status)
 *   sdk/          the same for the game-server SDK (spec/sdk/: the local endpoint each game
 *                 server gets): its bundled openapi.yaml and its types.ts
 *
 * `--check` builds the same files in memory and fails when any file on disk differs,
 * so CI catches a spec edit that was not regenerated or a hand edit of generated/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { parse } from 'yaml';
import { buildErrorsModule } from './error-map.js';
import { buildHandlersModule, buildRoutesModule, type OpenApiDocument } from './route-table.js';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'generated');
const specDir = join(root, 'spec');
const banner = '// Generated from spec/ by `npm run generate`. Do not edit by hand.\n';

function bundleSpec(rootFile: string): string {
  const tmp = mkdtempSync(join(tmpdir(), 'bundle-'));
  try {
    const out = join(tmp, 'openapi.yaml');
    execFileSync(
      join(root, 'node_modules/.bin/redocly'),
      ['bundle', rootFile, '--output', out],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REDOCLY_TELEMETRY: 'off' } },
    );
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** openapi-typescript's types, with a named type per component schema and a values array per enum. */
async function typesOf(document: unknown): Promise<string> {
  return astToString(
    await openapiTS(structuredClone(document) as never, {
      exportType: false,
      defaultNonNullable: false,
      rootTypes: true,
      rootTypesNoSchemaPrefix: true,
      enumValues: true,
    }),
  );
}

async function buildAll(): Promise<Record<string, string>> {
  const bundled = bundleSpec('spec/openapi.yaml');
  const document = parse(bundled) as OpenApiDocument;
  const types = await typesOf(document);
  const sdkBundled = bundleSpec('spec/sdk/openapi.yaml');
  // Which file declares each path (spec/openapi.yaml's `paths: { path: { $ref: file } }`).
  const root = parse(readFileSync(join(specDir, 'openapi.yaml'), 'utf8')) as { paths: Record<string, { $ref?: string }> };
  const sources = Object.fromEntries(Object.entries(root.paths).flatMap(([path, item]) => (item.$ref ? [[path, item.$ref]] : [])));
  return {
    'openapi.yaml': bundled,
    'types.ts': banner + types,
    'routes.ts': banner + buildRoutesModule(document, sources),
    'handlers.ts': banner + buildHandlersModule(document),
    'errors.ts': banner + buildErrorsModule(document as never),
    'sdk/openapi.yaml': sdkBundled,
    'sdk/types.ts': banner + (await typesOf(parse(sdkBundled))),
  };
}

const files = await buildAll();
if (process.argv.includes('--check')) {
  const stale = Object.entries(files)
    .filter(([name, text]) => {
      const path = join(outDir, name);
      return !existsSync(path) || readFileSync(path, 'utf8') !== text;
    })
    .map(([name]) => name);
  if (stale.length > 0) {
    console.error(`generated/ is stale (${stale.join(', ')}): run npm run generate and commit the result`);
    process.exit(1);
  }
  console.log('generated/ is up to date');
} else {
  mkdirSync(join(outDir, 'sdk'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(outDir, name), text);
  console.log(`wrote ${Object.keys(files).map((f) => `generated/${f}`).join(', ')}`);
}
