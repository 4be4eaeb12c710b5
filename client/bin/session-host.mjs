#!/usr/bin/env node
// The `session-host` command (package.json "bin"): runs client/cli.ts with tsx, found from this file,
// so it works from any directory and through `npx session-host`.
import { register } from 'tsx/esm/api';

register();
await import('../cli.ts');
