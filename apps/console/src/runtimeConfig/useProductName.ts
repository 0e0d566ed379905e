import { useConsoleConfig } from './consoleConfigQuery';

/**
 * Shown until the runtime configuration has arrived (and if it never does); the same name
 * index.html carries, so the tab title does not flicker on a default installation.
 */
export const fallbackProductName = 'Verbatim';

export function useProductName(): string {
  return useConsoleConfig().data?.productName ?? fallbackProductName;
}
