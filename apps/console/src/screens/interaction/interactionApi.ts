import {
  interactionDetailsSchema,
  type InteractionExternalLoginRequest,
  type interactionLoginRequestSchema,
  interactionRedirectSchema,
} from '@verbatim/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../api/apiClient';

const base = (uid: string) => `/auth/interactions/${encodeURIComponent(uid)}`;

export function interactionDetailsQuery(uid: string) {
  return queryOptions({
    queryKey: ['auth', 'interaction', uid],
    queryFn: ({ signal }) => apiRequest(`${base(uid)}/details`, { schema: interactionDetailsSchema, signal }),
    staleTime: Infinity,
    retry: false,
  });
}

export function submitInteractionLogin(uid: string, body: z.input<typeof interactionLoginRequestSchema>) {
  return apiRequest(`${base(uid)}/login`, { method: 'POST', schema: interactionRedirectSchema, body });
}

/** The sign-in step answered with the code Google or GitHub sent back (see /auth/login/external). */
export function submitInteractionExternalLogin(uid: string, body: InteractionExternalLoginRequest) {
  return apiRequest(`${base(uid)}/login/external`, {
    method: 'POST',
    schema: interactionRedirectSchema,
    body,
  });
}

export function answerInteraction(uid: string, answer: 'consent' | 'abort') {
  return apiRequest(`${base(uid)}/${answer}`, {
    method: 'POST',
    schema: interactionRedirectSchema,
    body: {},
  });
}
