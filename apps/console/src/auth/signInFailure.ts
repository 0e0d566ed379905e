import { ApiRequestError } from '../api/ApiRequestError';
import type { ApiRequestErrorCode } from '../api/ApiRequestError';

/** Sign-in failures a screen explains itself, 403s included (spec §4). */
export const signInErrorCodes = [
  'INVALID_CREDENTIALS',
  'CAPTCHA_REQUIRED',
  'CAPTCHA_INVALID',
  'EMAIL_NOT_VERIFIED',
  'ACCOUNT_PENDING_APPROVAL',
  'ACCOUNT_INACTIVE',
  'BAD_TOKEN',
  'TOKEN_EXPIRED',
] as const satisfies readonly ApiRequestErrorCode[];

export type SignInFailure =
  | { kind: 'wrongCredentials'; captchaRequired: boolean }
  | { kind: 'captchaInvalid' }
  | { kind: 'pendingApproval' }
  | { kind: 'refused'; code: 'EMAIL_NOT_VERIFIED' | 'ACCOUNT_INACTIVE' }
  | { kind: 'other'; code: ApiRequestErrorCode };

/** What a failed sign-in means for the login form (spec §4 Login, §8). */
export function signInFailure(error: unknown): SignInFailure {
  if (!(error instanceof ApiRequestError)) return { kind: 'other', code: 'NETWORK_ERROR' };
  switch (error.code) {
    case 'INVALID_CREDENTIALS':
      return { kind: 'wrongCredentials', captchaRequired: false };
    case 'CAPTCHA_REQUIRED':
      return { kind: 'wrongCredentials', captchaRequired: true };
    case 'CAPTCHA_INVALID':
      return { kind: 'captchaInvalid' };
    case 'ACCOUNT_PENDING_APPROVAL':
      return { kind: 'pendingApproval' };
    case 'EMAIL_NOT_VERIFIED':
    case 'ACCOUNT_INACTIVE':
      return { kind: 'refused', code: error.code };
    default:
      return { kind: 'other', code: error.code };
  }
}
