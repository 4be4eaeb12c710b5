#!/usr/bin/env node
/**
 * `npm test`: every check the project promises, in order, with one summary line at the end.
 *   spec lint, generated/ drift, typecheck (incl. compile-time contract checks) count one each;
 *   vitest and Dredd count their own tests. Ends with `N passed, N failed`; exits non-zero on
 *   any failure.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const env = { ...process.env, REDOCLY_TELEMETRY: 'off', FORCE_COLOR: '0', NO_COLOR: '1' };
const bin = (name) => `node_modules/.bin/${name}`;
const stripAnsi = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

function run(command, args, extraEnv = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const tee = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', tee(process.stdout));
    child.stderr.on('data', tee(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output: stripAnsi(output) }));
  });
}

/** A vitest run, counted from its JSON report. */
function vitest(name, report, args = [], extraEnv = {}) {
  return {
    name,
    command: bin('vitest'),
    args: ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env: extraEnv,
    count: () => {
      const result = JSON.parse(readFileSync(report, 'utf8'));
      // A file that fails to load has no tests but is a failure all the same.
      const brokenFiles = result.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
      return { passed: result.numPassedTests, failed: result.numFailedTests + brokenFiles };
    },
  };
}

function dreddCount(output) {
  const match = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped/.exec(output);
  if (!match) return undefined;
  return { passed: Number(match[1]), failed: Number(match[2]) + Number(match[3]) };
}

/** Every test service on PostgreSQL instead of SQLite (test/support/service.ts). */
const ON_POSTGRES = { SESSION_HOST_TEST_STORE: 'postgres' };

const steps = [
  { name: 'spec lint (redocly)', command: bin('redocly'), args: ['lint'] },
  { name: 'generated/ is up to date', command: process.execPath, args: ['--import', 'tsx', 'server/codegen/generate.ts', '--check'] },
  { name: 'no breaking change without a new major version', command: process.execPath, args: ['--import', 'tsx', 'test/conformance/spec-compat.ts'] },
  { name: 'typecheck (tsc)', command: bin('tsc'), args: ['-p', '.'] },
  { name: 'typecheck admin panel (tsc)', command: bin('tsc'), args: ['-p', 'admin'] },
  // The benchmarks are not run by the tests: typechecked so that they keep up with the code they drive.
  { name: 'typecheck benchmarks (tsc)', command: bin('tsc'), args: ['-p', 'bench'] },
  // The browser tests and the service serve this build (npm start builds it too, in prestart).
  { name: 'build admin panel (vite)', command: bin('vite'), args: ['build', '--config', 'admin/vite.config.ts'] },
  vitest('vitest', 'test-results/vitest.json'),
  { name: 'dredd', command: process.execPath, args: ['test/dredd/run.mjs'], count: dreddCount },
  { name: 'journeys (Arazzo, Redocly Respect)', command: process.execPath, args: ['test/conformance/respect.mjs'] },
  // After vitest and Dredd: every documented (operation, status) pair exercised by one of them.
  { name: 'contract coverage', command: process.execPath, args: ['test/conformance/coverage.mjs'] },
  // The second store: the API tier, the kill -9 soak and Dredd again, on PostgreSQL, when a
  // cluster is at hand (CI starts one for the run: test/support/postgres.mjs).
  ...(process.env.SESSION_HOST_POSTGRES_URL
    ? [
        vitest('vitest api on PostgreSQL', 'test-results/vitest-postgres.json', ['--project', 'api'], ON_POSTGRES),
        vitest('soak on PostgreSQL', 'test-results/vitest-postgres-soak.json', ['test/conformance/soak.test.ts'], ON_POSTGRES),
        { name: 'dredd on PostgreSQL', command: process.execPath, args: ['test/dredd/run.mjs'], count: dreddCount, env: ON_POSTGRES },
      ]
    : []),
];

mkdirSync('test-results', { recursive: true });
for (const report of ['vitest.json', 'vitest-postgres.json', 'vitest-postgres-soak.json']) rmSync(`test-results/${report}`, { force: true });
rmSync('test-results/coverage', { recursive: true, force: true });
for (const file of ['fuzz.json', 'soak.json']) rmSync(`test-results/${file}`, { force: true });
let passed = 0;
let failed = 0;
const summary = [];
for (const step of steps) {
  console.log(`\n=== ${step.name} ===`);
  const { code, output } = await run(step.command, step.args, step.env);
  let counted;
  try {
    counted = step.count?.(output);
  } catch {
    counted = undefined;
  }
  if (!counted) counted = code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
  // A runner that exits non-zero without counting a failure still failed.
  if (code !== 0 && counted.failed === 0) counted.failed = 1;
  passed += counted.passed;
  failed += counted.failed;
  summary.push(`${code === 0 ? 'ok  ' : 'FAIL'} ${step.name}: ${counted.passed} passed, ${counted.failed} failed`);
}
console.log(`\n=== summary ===\n${summary.join('\n')}`);
// The reliability figures the conformance tests leave behind.
for (const [name, file] of [['fuzz', 'test-results/fuzz.json'], ['soak', 'test-results/soak.json']]) {
  try {
    console.log(`${name}: ${readFileSync(file, 'utf8')}`);
  } catch {
    console.log(`${name}: no figures (did its test run?)`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
