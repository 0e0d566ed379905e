import { type ConsoleConfig, consoleConfigSchema } from '@verbatim/contracts';
import { inject } from 'vitest';

/** The runtime configuration the product serves, to compare screens with what it says. */
export async function fetchConsoleConfig(): Promise<ConsoleConfig> {
  const response = await fetch(new URL('/api/v1/console-config', inject('baseUrl')));
  if (!response.ok) throw new Error(`GET /api/v1/console-config answered ${response.status}`);
  return consoleConfigSchema.parse(await response.json());
}
