#!/usr/bin/env node
/**
 * Runs the Arazzo journeys (spec/workflows/journeys.arazzo.yaml) with Redocly Respect against
 * the real service: lifecycle and capacity fallback on a service with a locked location, the
 * quota journey on one whose account has no quota. Exits non-zero when a journey fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOKEN = 'gsh_RespectJourneys00000000000000000000000000';

async function startService(env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'session-host-respect-'));
  // Dredd's fleet, on game ports no other test run holds (with-port-slot.sh sets FLEET_FILE).
  const child = spawn('bash', ['test/dredd/with-port-slot.sh', process.execPath, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', BOOTSTRAP_TOKEN: TOKEN, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return {
    url,
    stop() {
      child.kill('SIGTERM');
      // Game servers outlive the service by design; a failed journey may leave one behind.
      const sessions = join(dataDir, 'sessions');
      for (const id of existsSync(sessions) ? readdirSync(sessions) : []) {
        try {
          const state = JSON.parse(readFileSync(join(sessions, id, 'state.json'), 'utf8'));
          for (const target of [state.supervisorPid, state.gamePid && -state.gamePid]) if (target) process.kill(target, 'SIGKILL');
        } catch {
          // Already gone, or never started.
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const runId = Date.now();
function respect(url, workflows, extra = []) {
  const args = ['respect', 'spec/workflows/journeys.arazzo.yaml', '--server', `sessionHost=${url}`, ...extra];
  for (const workflow of workflows) args.push('--workflow', workflow);
  args.push('--input', `token=${TOKEN}`, '--input', `sessionId=journey-${runId}`, '--input', `fallbackId=fallback-${runId}`);
  if (process.env.RESPECT_VERBOSE) args.push('--verbose');
  const run = spawnSync('node_modules/.bin/redocly', args, { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  return run.status === 0;
}

let ok = true;
const main = await startService({});
try {
  ok = respect(main.url, ['lifecycle', 'capacityFallback']) && ok;
  // Respect reads a gzip body as {} and fails its binary schema: only that check is a warning here.
  ok = respect(main.url, ['artifacts'], ['--severity', '{"SCHEMA_CHECK":"warn"}']) && ok;
} finally {
  main.stop();
}
const broke = await startService({ DEFAULT_QUOTA_MINUTES: '0' });
try {
  ok = respect(broke.url, ['quotaExhausted']) && ok;
} finally {
  broke.stop();
}
process.exit(ok ? 0 : 1);
