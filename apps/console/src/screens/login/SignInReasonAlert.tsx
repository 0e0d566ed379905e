import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { TranslationKey } from '../../i18n/translationKey';

/** Why another screen sent the user back to a sign-in form (a failed link or provider sign-in). */
export interface SignInLocationState {
  reasonKey?: TranslationKey;
}

function reasonOf(state: unknown): TranslationKey | undefined {
  if (typeof state !== 'object' || state === null || !('reasonKey' in state)) return undefined;
  return typeof state.reasonKey === 'string' ? (state.reasonKey as TranslationKey) : undefined;
}

/** The reason in the location state, shown above the sign-in form; nothing without one. */
export function SignInReasonAlert() {
  const { t } = useTranslation();
  const reasonKey = reasonOf(useLocation().state);
  if (!reasonKey) return null;
  return (
    <Alert color="orange" variant="light" role="alert">
      {t(reasonKey)}
    </Alert>
  );
}
