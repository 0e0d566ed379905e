import {
  installationLicenceSchema,
  licencesSchema,
  type UsageReport,
  type UsageReportResult,
  usageReportResultSchema,
} from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../api/apiClient';

/** Spec §7: the signed-in account's on-premise licences. */
export const licencesQuery = queryOptions({
  queryKey: ['on-premise-licences'],
  queryFn: ({ signal }) => apiRequest('/limiter/on-premise/licenses', { schema: licencesSchema, signal }),
});

/** The on-premise edition's own licence. */
export const installationLicenceQuery = queryOptions({
  queryKey: ['installation-licence'],
  queryFn: ({ signal }) =>
    apiRequest('/licensing/installation', { schema: installationLicenceSchema, signal }),
  refetchInterval: 60_000,
});

export function uploadUsageReport(report: UsageReport): Promise<UsageReportResult> {
  return apiRequest('/limiter/on-premise/licenses/usage-reports', {
    method: 'POST',
    schema: usageReportResultSchema,
    body: report,
  });
}
