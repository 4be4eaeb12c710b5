#!/usr/bin/env node
/**
 * `npm run mock [-- --port N] [-- other prism mock flags]`: Prism serving the bundled spec.
 * The port comes from --port, else PORT, else 4010 (one --port reaches Prism, never two).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
let port = process.env.PORT || '4010';
const rest = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--port' || arg === '-p') port = args[++i] ?? port;
  else if (arg.startsWith('--port=')) port = arg.slice('--port='.length);
  else rest.push(arg);
}
const root = resolve(import.meta.dirname, '..');
// The guard keeps one malformed path from ending the mock (scripts/mock-guard.mjs).
const prism = spawn(process.execPath, ['--import', resolve(root, 'scripts/mock-guard.mjs'), resolve(root, 'node_modules/@stoplight/prism-cli/dist/index.js'), 'mock', resolve(root, 'generated/openapi.yaml'), '--port', port, ...rest], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => prism.kill(signal));
prism.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
