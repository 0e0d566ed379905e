import {
  connectIntegrationResponseSchema,
  contactsPageSchema,
  contactsPageSize,
  contactUrlSchema,
  crmDeliveryListSchema,
  crmDeliverySchema,
  crmProviderListSchema,
  integrationListSchema,
  type ConnectIntegrationRequest,
  type ConnectIntegrationResponse,
  type CrmContact,
  type CrmDelivery,
  type CrmProviderId,
  type SendTextToCrmRequest,
  type SendToCrmRequest,
} from '@verbatim/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiBasePath, apiRequest } from '../../api/apiClient';
import { ApiRequestError } from '../../api/ApiRequestError';

export const providersQuery = queryOptions({
  queryKey: ['crm-providers'],
  queryFn: ({ signal }) => apiRequest('/providers', { schema: crmProviderListSchema, signal }),
});

export const integrationsQuery = queryOptions({
  queryKey: ['integrations'],
  queryFn: ({ signal }) => apiRequest('/integrations', { schema: integrationListSchema, signal }),
});

/** Connecting may call the provider (a token is checked there): allow it more than the usual 10 s. */
const providerTimeoutMs = 30_000;

export function connectIntegration(body: ConnectIntegrationRequest): Promise<ConnectIntegrationResponse> {
  return apiRequest('/integrations', {
    method: 'POST',
    schema: connectIntegrationResponseSchema,
    body,
    timeoutMs: providerTimeoutMs,
  });
}

export async function disconnectIntegration(id: string): Promise<void> {
  await apiRequest(`/integrations/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: z.undefined(),
    timeoutMs: providerTimeoutMs,
  });
}

/** The API path (under /api/v1) of a `next_page_url`, which is an absolute URL of our own API. */
export function nextPagePath(nextPageUrl: string): string {
  const url = new URL(nextPageUrl, window.location.origin);
  return `${url.pathname.replace(new RegExp(`^${apiBasePath}`), '')}${url.search}`;
}

/** The contacts of one connection, searched, a page at a time by following `next_page_url`. */
export function contactsQuery(integrationId: string, search: string) {
  const params = new URLSearchParams({ integrationId, limit: String(contactsPageSize.default) });
  if (search) params.set('q', search);
  return infiniteQueryOptions({
    queryKey: ['crm-contacts', integrationId, search],
    initialPageParam: `/contacts?${params.toString()}`,
    queryFn: async ({ pageParam, signal }) => {
      try {
        return await apiRequest(pageParam, {
          schema: contactsPageSchema,
          signal,
          timeoutMs: providerTimeoutMs,
        });
      } catch (error) {
        // The CRM failing is said in the contact browser, not on the general error page.
        if (
          error instanceof ApiRequestError &&
          (error.code === 'CRM_PROVIDER_ERROR' || error.code === 'CRM_UNREACHABLE')
        ) {
          throw new CrmUnavailableError(error.message);
        }
        throw error;
      }
    },
    getNextPageParam: (page) => (page.next_page_url ? nextPagePath(page.next_page_url) : undefined),
  });
}

export function contactUrlQuery(provider: CrmProviderId, integrationId: string, contact: CrmContact) {
  const params = new URLSearchParams({ provider, integrationId, contactId: contact.id, type: contact.type });
  return queryOptions({
    queryKey: ['crm-contact-url', integrationId, contact.id],
    queryFn: ({ signal }) =>
      apiRequest(`/contacts/contact-url?${params.toString()}`, { schema: contactUrlSchema, signal }),
    staleTime: Infinity,
  });
}

/** The CRM could not be reached: shown where the contacts would be. */
export class CrmUnavailableError extends Error {
  override readonly name = 'CrmUnavailableError';
  readonly code = 'CRM_PROVIDER_ERROR' as const;
}

export function sendToCrm(transcriptId: string, body: SendToCrmRequest): Promise<CrmDelivery> {
  return apiRequest(`/transcripts/${encodeURIComponent(transcriptId)}/crm`, {
    method: 'POST',
    schema: crmDeliverySchema,
    body,
  });
}

/** A text that is no stored transcript (a live session's) sent to a contact; kept with the delivery. */
export function sendTextToCrm(body: SendTextToCrmRequest): Promise<CrmDelivery> {
  return apiRequest('/crm-deliveries', { method: 'POST', schema: crmDeliverySchema, body });
}

export function crmDeliveriesQuery(transcriptId: string) {
  return queryOptions({
    queryKey: ['crm-deliveries', transcriptId],
    queryFn: ({ signal }) =>
      apiRequest(`/crm-deliveries?transcriptId=${encodeURIComponent(transcriptId)}`, {
        schema: crmDeliveryListSchema,
        signal,
      }),
    // Queued deliveries settle within seconds: look again until none is on its way.
    refetchInterval: (query) =>
      query.state.data?.deliveries.some(
        (delivery) => delivery.status === 'queued' || delivery.status === 'sending',
      )
        ? 2000
        : false,
  });
}
