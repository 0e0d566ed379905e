import {
  apiKeyListSchema,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createdApiKeySchema,
  usagesSchema,
} from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/apiClient';

export const apiKeysQuery = queryOptions({
  queryKey: ['api-keys'],
  queryFn: ({ signal }) => apiRequest('/auth/api-keys', { schema: apiKeyListSchema, signal }),
});

export const usagesQuery = queryOptions({
  queryKey: ['usages'],
  queryFn: ({ signal }) => apiRequest('/limiter/usages', { schema: usagesSchema, signal }),
});

export function generateApiKey(body: CreateApiKeyRequest): Promise<CreatedApiKey> {
  return apiRequest('/auth/api-keys', { method: 'POST', schema: createdApiKeySchema, body });
}

export async function revokeApiKey(id: string): Promise<void> {
  await apiRequest(`/auth/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE', schema: z.undefined() });
}
