import { access, constants } from 'node:fs/promises';
import { chromiumPath, consoleIndexPath, serverCliPath } from './paths.js';

async function exists(path: string, mode: number): Promise<boolean> {
  return access(path, mode).then(
    () => true,
    () => false,
  );
}

/** Fails before anything starts, naming the fix, when the journeys cannot run here. */
export async function assertJourneysCanRun(): Promise<void> {
  if (!(await exists(chromiumPath, constants.X_OK))) {
    throw new Error(`Chromium not found at ${chromiumPath}: install it with \`apt-get install -y chromium\``);
  }
  const missingBuilds = [serverCliPath, consoleIndexPath];
  for (const path of missingBuilds) {
    if (!(await exists(path, constants.R_OK))) {
      throw new Error(`${path} is missing: run npm run build (at the repository root) first`);
    }
  }
}
