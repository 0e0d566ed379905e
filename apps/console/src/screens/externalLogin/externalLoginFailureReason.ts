import { ApiRequestError } from '../../api/ApiRequestError';
import type { TranslationKey } from '../../i18n/translationKey';

/** A return from the provider that the console refuses before asking the server. */
export class ExternalLoginRefused extends Error {
  constructor(readonly reason: 'cancelled' | 'notStartedHere') {
    super(`external sign-in refused: ${reason}`);
  }
}

/** What the login page says after a failed return from Google or GitHub. */
export function externalLoginFailureReason(error: unknown): 'pendingApproval' | TranslationKey {
  if (error instanceof ExternalLoginRefused) {
    return error.reason === 'cancelled'
      ? 'screens.externalLogin.cancelled'
      : 'screens.externalLogin.notStartedHere';
  }
  if (!(error instanceof ApiRequestError)) return 'apiErrors.EXTERNAL_SIGNIN_FAILED';
  switch (error.code) {
    case 'ACCOUNT_PENDING_APPROVAL':
      return 'pendingApproval';
    case 'ACCOUNT_INACTIVE':
      return 'apiErrors.ACCOUNT_INACTIVE';
    default:
      return 'apiErrors.EXTERNAL_SIGNIN_FAILED';
  }
}
