import {
  acceptedResponseSchema,
  captchaConfigSchema,
  type RegisterRequest,
  registerResponseSchema,
  type recoveryPasswordRequestSchema,
  recoveryPasswordResponseSchema,
  type recoveryRequestSchema,
} from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../api/apiClient';

export const captchaConfigQuery = queryOptions({
  queryKey: ['auth', 'captcha'],
  queryFn: ({ signal }) => apiRequest('/auth/captcha', { schema: captchaConfigSchema, signal }),
  staleTime: Infinity,
});

export function register(body: RegisterRequest) {
  return apiRequest('/auth/register', { method: 'POST', schema: registerResponseSchema, body });
}

export function resendVerification(email: string) {
  return apiRequest('/auth/register/resend', {
    method: 'POST',
    schema: acceptedResponseSchema,
    body: { email },
  });
}

export function requestRecovery(body: z.input<typeof recoveryRequestSchema>) {
  return apiRequest('/auth/recovery', { method: 'POST', schema: acceptedResponseSchema, body });
}

export function setRecoveredPassword(body: z.input<typeof recoveryPasswordRequestSchema>) {
  return apiRequest('/auth/recovery/password', {
    method: 'POST',
    schema: recoveryPasswordResponseSchema,
    body,
  });
}
