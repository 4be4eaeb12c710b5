#!/usr/bin/env node
/**
 * `npm run dredd` (and `npm test`'s Dredd step): Dredd on a free port, so two runs on one machine
 * never collide. Dredd ignores a positional endpoint when dredd.yml exists, so this writes a copy
 * of dredd.yml with the endpoint changed and tells serve.sh the port through DREDD_PORT.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

const port = await new Promise((resolve, reject) => {
  const probe = createServer();
  probe.once('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const config = readFileSync('dredd.yml', 'utf8').replace(/^endpoint: .*$/m, `endpoint: http://127.0.0.1:${port}`);
mkdirSync('test-results', { recursive: true });
const configFile = `test-results/dredd-${port}.yml`;
writeFileSync(configFile, config);
const dredd = spawn('node_modules/.bin/dredd', ['--config', configFile, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, DREDD_PORT: String(port) },
});
dredd.on('close', (code) => process.exit(code ?? 1));
