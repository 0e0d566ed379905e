import type { TranslationKey } from '../i18n/translationKey';
import type { ApiRequestErrorCode } from './ApiRequestError';

/**
 * What a mutation toasts when it settles: an i18n key, nothing given for the generic
 * "Operation successful" / "Operation failed", or `false` to stay silent (the screen says it better).
 */
export type MutationToastMeta = {
  successMessage?: TranslationKey | false;
  errorMessage?: TranslationKey | false;
  /**
   * Codes the screen explains itself although they would otherwise go to the general error page
   * (a 403 ACCOUNT_PENDING_APPROVAL on sign-in has its own page, spec §4).
   */
  handledErrorCodes?: readonly ApiRequestErrorCode[];
};

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: MutationToastMeta;
  }
}
