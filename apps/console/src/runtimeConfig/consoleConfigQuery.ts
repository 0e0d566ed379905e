import { consoleConfigSchema } from '@verbatim/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api/apiClient';

/**
 * Product name and external links of this installation. They only change with a redeploy, so one
 * fetch per visit is enough.
 */
export const consoleConfigQuery = queryOptions({
  queryKey: ['console-config'],
  queryFn: ({ signal }) => apiRequest('/console-config', { schema: consoleConfigSchema, signal }),
  staleTime: Infinity,
});

export function useConsoleConfig() {
  return useQuery(consoleConfigQuery);
}
