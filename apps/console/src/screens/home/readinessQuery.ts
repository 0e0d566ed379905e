import { readinessSchema } from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../api/apiClient';

export const readinessQuery = queryOptions({
  queryKey: ['system', 'readiness'],
  queryFn: ({ signal }) =>
    // 503 is not a failure of the call: it is the answer "not ready", with the failing checks.
    apiRequest('/ready', { schema: readinessSchema, signal, answerStatuses: [503] }),
  refetchInterval: 60_000,
});
