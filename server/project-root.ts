import { resolve } from 'node:path';

/** The checkout the service runs from: `./` entries of a fleet file's commands are relative to it. */
export const projectRoot = resolve(import.meta.dirname, '..');
