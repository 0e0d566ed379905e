import type { ErrorCode, ValidationIssue } from '@verbatim/contracts';

const statusByCode = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ROUTE_NOT_FOUND: 404,
  RATE_LIMITED: 429,
  NOT_READY: 503,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, number>;

/** The one error type of the server: a stable code, an HTTP status derived from it, a message for humans. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ValidationIssue[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.statusCode = statusByCode[code];
  }
}

export function httpStatusOf(code: ErrorCode): number {
  return statusByCode[code];
}
