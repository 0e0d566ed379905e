import { z } from 'zod';

/**
 * Every error the API can answer with. The code is stable (clients switch on it and the console
 * uses it as an i18n key); the message is for humans and may change.
 */
export const errorCodes = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'INVALID_CREDENTIALS',
  'CAPTCHA_REQUIRED',
  'CAPTCHA_INVALID',
  'EMAIL_IN_USE',
  'EMAIL_NOT_VERIFIED',
  'ACCOUNT_PENDING_APPROVAL',
  'ACCOUNT_INACTIVE',
  'PASSWORD_INCORRECT',
  'INVALID_FILE',
  'EXTERNAL_SIGNIN_FAILED',
  'BAD_TOKEN',
  'TOKEN_EXPIRED',
  'INSUFFICIENT_CREDIT',
  'API_KEY_CAP_REACHED',
  'API_KEY_LIMIT_REACHED',
  'WEBHOOK_SIGNATURE_INVALID',
  'PAYMENT_PROVIDER_ERROR',
  'COUNTRY_UNKNOWN',
  'PAYMENT_AMOUNT_CHANGED',
  'RATE_LIMITED',
  'NOT_READY',
  'UNSUPPORTED_MEDIA',
  'UNSUPPORTED_LANGUAGE',
  'RECORDING_TOO_LONG',
  'SPEECH_UNAVAILABLE',
  'STORAGE_UNAVAILABLE',
  'SPEECH_BUSY',
  'TRANSCRIPTION_FAILED',
  'FILE_ALREADY_EXISTS',
  'STORAGE_LIMIT_REACHED',
  'UPLOAD_OFFSET_MISMATCH',
  'UPLOAD_IN_PROGRESS',
  'UPLOAD_CHECKSUM_MISMATCH',
  'UPLOAD_SIZE_EXCEEDED',
  'TRANSCRIPT_NOT_READY',
  'WEBHOOK_URL_MISSING',
  'URL_NOT_ALLOWED',
  'URL_FETCH_FAILED',
  'LICENSE_INVALID',
  'LICENSE_EXPIRED',
  'LICENSE_EXHAUSTED',
  'LICENSE_SUSPENDED',
  'LICENSE_OFFLINE_TOO_LONG',
  'CRM_NOT_CONFIGURED',
  'CRM_NOT_CONNECTED',
  'CRM_TOKEN_INVALID',
  'CRM_OAUTH_STATE_INVALID',
  'CRM_RECONNECT_REQUIRED',
  'CRM_RATE_LIMITED',
  'CRM_PROVIDER_ERROR',
  'CRM_UNREACHABLE',
  'INTERNAL_ERROR',
] as const;

export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const validationIssueSchema = z.object({
  /** Where the problem is: `body`, `query`, `params` or `headers`, then the path inside it. */
  location: z.enum(['body', 'query', 'params', 'headers']),
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const apiErrorSchema = z
  .object({
    code: errorCodeSchema,
    message: z.string(),
    details: z.array(validationIssueSchema).optional(),
    /** Present on 5xx answers: the id under which the server logged the failure. */
    errorId: z.string().optional(),
  })
  .meta({ id: 'ApiError' });
export type ApiError = z.infer<typeof apiErrorSchema>;
