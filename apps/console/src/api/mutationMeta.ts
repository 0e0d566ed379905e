import type { TranslationKey } from '../i18n/translationKey';

/**
 * What a mutation toasts when it settles: an i18n key, nothing given for the generic
 * "Operation successful" / "Operation failed", or `false` to stay silent (the screen says it better).
 */
export type MutationToastMeta = {
  successMessage?: TranslationKey | false;
  errorMessage?: TranslationKey | false;
};

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: MutationToastMeta;
  }
}
