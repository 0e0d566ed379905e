import { fileURLToPath } from 'node:url';

/** Resolved from this file so the journeys run the same from any working directory. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const serverCliPath = fileURLToPath(new URL('../../apps/server/dist/cli.js', import.meta.url));
export const consoleIndexPath = fileURLToPath(new URL('../../apps/console/dist/index.html', import.meta.url));
export const artifactsDir = fileURLToPath(new URL('../artifacts', import.meta.url));
export const chromiumPath = '/usr/bin/chromium';
