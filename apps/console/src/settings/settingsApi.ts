import { type Settings, settingsSchema, type UpdateSettingsRequest } from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../api/apiClient';

/** Spec §9: the credit balance is polled every 300000 ms. */
export const creditPollIntervalMs = 300_000;

export const settingsQuery = queryOptions({
  queryKey: ['settings'],
  queryFn: ({ signal }) => apiRequest('/settings', { schema: settingsSchema, signal }),
});

/** The settings of a token just obtained, before the session holds it (spec §4: language after sign-in). */
export function fetchSettingsWith(accessToken: string): Promise<Settings> {
  return apiRequest('/settings', { schema: settingsSchema, accessToken });
}

export function updateSettings(body: UpdateSettingsRequest): Promise<Settings> {
  return apiRequest('/settings', { method: 'PUT', schema: settingsSchema, body });
}
