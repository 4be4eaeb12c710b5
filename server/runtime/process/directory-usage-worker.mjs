// A worker thread that walks session directories for the service (directory-usage.ts): a walk of
// 100,000 entries takes most of a second of synchronous work, which on the service's event loop
// would hold every request of every account that long.
import { parentPort } from 'node:worker_threads';
import { directoryUsage } from './game-tree.mjs';

parentPort.on('message', ({ id, dir, maxEntries }) => parentPort.postMessage({ id, usage: directoryUsage(dir, maxEntries) }));
