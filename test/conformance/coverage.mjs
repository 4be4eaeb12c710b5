#!/usr/bin/env node
/**
 * The contract coverage table: every (operation, documented status) pair of the bundled spec,
 * and whether Dredd or the API tests exercised it against the real server. Fails when a pair is
 * exercised by neither, unless it is listed below with the reason it cannot be.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

const UNREACHABLE = {
  // Nothing documented is unreachable today; add `"operationId status": "reason"` when something is.
};

const spec = parse(readFileSync('generated/openapi.yaml', 'utf8'));
const pairs = [];
const operationOf = new Map();
for (const [path, item] of Object.entries(spec.paths)) {
  for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
    const operation = item[method];
    if (!operation) continue;
    operationOf.set(`${method.toUpperCase()} ${path}`, operation.operationId);
    for (const status of Object.keys(operation.responses)) pairs.push(`${operation.operationId} ${status}`);
  }
}

const dir = 'test-results/coverage';
const byVitest = new Set();
const byDredd = new Set();
for (const file of existsSync(dir) ? readdirSync(dir) : []) {
  const entries = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8'));
  if (file === 'dredd.json') {
    for (const entry of entries) {
      const [method, path, status] = entry.split(' ');
      byDredd.add(`${operationOf.get(`${method} ${path}`)} ${status}`);
    }
  } else {
    for (const entry of entries) byVitest.add(entry);
  }
}

const rows = pairs.map((pair) => {
  const dredd = byDredd.has(pair);
  const vitest = byVitest.has(pair);
  const reason = UNREACHABLE[pair];
  return { pair, dredd, vitest, ok: dredd || vitest || reason !== undefined, reason };
});
const mark = (yes) => (yes ? 'yes' : ' - ');
console.log('operation status'.padEnd(34), 'dredd', 'tests', '');
for (const row of rows) {
  console.log(row.pair.padEnd(34), mark(row.dredd).padEnd(5), mark(row.vitest).padEnd(5), row.ok ? '' : 'UNCOVERED', row.reason ?? '');
}
const uncovered = rows.filter((r) => !r.ok);
console.log(`\n${rows.length} documented (operation, status) pairs: ${rows.length - uncovered.length} covered, ${uncovered.length} uncovered`);
process.exit(uncovered.length === 0 ? 0 : 1);
