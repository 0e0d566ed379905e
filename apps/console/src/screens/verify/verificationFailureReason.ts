import { ApiRequestError } from '../../api/ApiRequestError';

/** What the login page says after a failed verification link (spec §8: a bad token means it expired). */
export function verificationFailureReason(
  error: unknown,
): 'pendingApproval' | 'screens.verify.linkExpired' | 'apiErrors.ACCOUNT_INACTIVE' | 'screens.verify.failed' {
  if (!(error instanceof ApiRequestError)) return 'screens.verify.failed';
  switch (error.code) {
    case 'ACCOUNT_PENDING_APPROVAL':
      return 'pendingApproval';
    case 'BAD_TOKEN':
    case 'TOKEN_EXPIRED':
      return 'screens.verify.linkExpired';
    case 'ACCOUNT_INACTIVE':
      return 'apiErrors.ACCOUNT_INACTIVE';
    default:
      return 'screens.verify.failed';
  }
}
