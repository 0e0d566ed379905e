import type { ErrorCode, ValidationIssue } from '@verbatim/contracts';

const statusByCode = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ROUTE_NOT_FOUND: 404,
  // The path exists, with other methods: the Allow header lists them.
  METHOD_NOT_ALLOWED: 405,
  // A path parameter longer than any the API takes.
  URI_TOO_LONG: 414,
  // The request line and headers are larger than the server reads (Node.js: 16 KiB).
  HEADERS_TOO_LARGE: 431,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INVALID_CREDENTIALS: 401,
  CAPTCHA_REQUIRED: 429,
  CAPTCHA_INVALID: 400,
  EMAIL_IN_USE: 409,
  EMAIL_NOT_VERIFIED: 403,
  ACCOUNT_PENDING_APPROVAL: 403,
  ACCOUNT_INACTIVE: 403,
  PASSWORD_INCORRECT: 400,
  INVALID_FILE: 400,
  EXTERNAL_SIGNIN_FAILED: 400,
  BAD_TOKEN: 400,
  TOKEN_EXPIRED: 400,
  // 402: the account must buy credit (or raise the key's cap) before this can be used.
  INSUFFICIENT_CREDIT: 402,
  API_KEY_CAP_REACHED: 402,
  API_KEY_LIMIT_REACHED: 409,
  WEBHOOK_SIGNATURE_INVALID: 400,
  // The payment provider failed or could not be reached: the request itself was fine.
  PAYMENT_PROVIDER_ERROR: 502,
  // A well-formed code that is not an ISO 3166-1 country.
  COUNTRY_UNKNOWN: 400,
  // The VAT rate or total the customer confirmed is no longer the price (rates or the VAT number changed).
  PAYMENT_AMOUNT_CHANGED: 409,
  RATE_LIMITED: 429,
  NOT_READY: 503,
  // A media file, but no audio track (or a codec nobody can decode).
  UNSUPPORTED_MEDIA: 415,
  UNSUPPORTED_LANGUAGE: 400,
  RECORDING_TOO_LONG: 413,
  // No model installed, or ffmpeg missing: the operator must act (the message says how).
  SPEECH_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  // Every recogniser busy and the line full: retry after the Retry-After header.
  SPEECH_BUSY: 503,
  TRANSCRIPTION_FAILED: 500,
  // The same content was already uploaded and completed (spec §8: ValidationError with isCompleted).
  FILE_ALREADY_EXISTS: 409,
  // The account's storage quota would be exceeded (spec §8: LimitReachedError).
  STORAGE_LIMIT_REACHED: 403,
  // The chunk did not start where the server stands: the body says the size held.
  UPLOAD_OFFSET_MISMATCH: 409,
  // Another request is writing the same upload: retry after the Retry-After header.
  UPLOAD_IN_PROGRESS: 409,
  // Every byte arrived but the SHA-1 differs from the one declared: the upload starts over.
  UPLOAD_CHECKSUM_MISMATCH: 422,
  // More bytes than the declared size (or than 500 MB).
  UPLOAD_SIZE_EXCEEDED: 413,
  // The transcript is not done (yet, or ever: the file failed).
  TRANSCRIPT_NOT_READY: 409,
  WEBHOOK_URL_MISSING: 409,
  // A recording URL that is not https or resolves to a private, loopback or metadata address.
  URL_NOT_ALLOWED: 400,
  // The recording URL could not be fetched.
  URL_FETCH_FAILED: 422,
  // On-premise edition: its licence key is not one the licence server issued (or was altered).
  LICENSE_INVALID: 403,
  LICENSE_EXPIRED: 403,
  // Every second of the licence is used: the operator must extend it.
  LICENSE_EXHAUSTED: 402,
  LICENSE_SUSPENDED: 403,
  // The licence server was not reached within the licence's grace days.
  LICENSE_OFFLINE_TOO_LONG: 503,
  // OAuth is offered only when the operator configured the provider's app (client id and secret).
  CRM_NOT_CONFIGURED: 400,
  // No connection to a CRM (of that provider) yet.
  CRM_NOT_CONNECTED: 404,
  // The provider refused the pasted token.
  CRM_TOKEN_INVALID: 400,
  // The OAuth callback's state is unknown, used, expired or another account's.
  CRM_OAUTH_STATE_INVALID: 400,
  // The provider refused the stored token (revoked, refresh refused): connect again.
  CRM_RECONNECT_REQUIRED: 409,
  // The provider asks us to slow down: retry after the Retry-After header.
  CRM_RATE_LIMITED: 429,
  // The provider failed or could not be reached: the request itself was fine.
  CRM_PROVIDER_ERROR: 502,
  // The provider could not be reached or failed (5xx): retry after the Retry-After header.
  CRM_UNREACHABLE: 502,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, number>;

/** The one error type of the server: a stable code, an HTTP status derived from it, a message for humans. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ValidationIssue[],
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.statusCode = statusByCode[code];
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  /** Sent as the Retry-After header (SPEECH_BUSY, RATE_LIMITED). */
  readonly retryAfterSeconds: number | undefined;
}

export function httpStatusOf(code: ErrorCode): number {
  return statusByCode[code];
}
