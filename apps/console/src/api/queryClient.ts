import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { notify } from '../notifications/notify';
import { ApiRequestError, isGlobalFailure, isTransientFailure } from './ApiRequestError';
import './mutationMeta';

/** Spec §9: answers stay cached for 300 s. */
const cacheTimeMs = 300_000;
const maxAttemptsForTransientFailures = 2;

export interface QueryClientDependencies {
  i18n: i18n;
  /** Takes the user to the general error page (spec §8). */
  onGlobalFailure: (error: ApiRequestError) => void;
}

/**
 * The console's single QueryClient. Failures are routed here, once, instead of in every screen:
 * global ones go to the general error page, mutation results become toasts.
 */
export function createQueryClient({ i18n, onGlobalFailure }: QueryClientDependencies): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (isGlobalFailure(error)) onGlobalFailure(error);
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _onMutateResult, mutation) => {
        const messageKey = mutation.meta?.successMessage;
        if (messageKey === false) return;
        notify.success({
          title: i18n.t('toast.successTitle'),
          message: i18n.t(messageKey ?? 'toast.operationSuccessful'),
        });
      },
      onError: (error, _variables, _onMutateResult, mutation) => {
        const handledHere =
          isApiRequestError(error) && mutation.meta?.handledErrorCodes?.includes(error.code);
        if (isGlobalFailure(error) && !handledHere) {
          onGlobalFailure(error);
          return;
        }
        const messageKey = mutation.meta?.errorMessage;
        if (messageKey === false) return;
        notify.error({
          title: i18n.t('toast.errorTitle'),
          message: i18n.t(messageKey ?? 'toast.operationFailed'),
        });
      },
    }),
    defaultOptions: {
      queries: {
        gcTime: cacheTimeMs,
        staleTime: 30_000,
        // A 4xx or 5xx will answer the same again; only a lost or slow answer is worth another try.
        retry: (failureCount, error) =>
          isTransientFailure(error) && failureCount < maxAttemptsForTransientFailures,
      },
      mutations: { retry: false },
    },
  });
}

function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}
