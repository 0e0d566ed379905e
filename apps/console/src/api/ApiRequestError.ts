import type { ErrorCode, ValidationIssue } from '@verbatim/contracts';

/**
 * Failures the console detects itself, next to the server's codes: no answer in time, no answer at
 * all, or an answer that does not match the contract (a proxy's HTML page, a broken body).
 */
export type ClientErrorCode = 'TIMEOUT' | 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';

export type ApiRequestErrorCode = ErrorCode | ClientErrorCode;

/** Every failed call to /api/v1 rejects with this, so callers switch on `code`, never on text. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly code: ApiRequestErrorCode;
  /** The id under which the server logged a 5xx failure; support asks for it. */
  readonly errorId: string | undefined;
  /** Where each problem of a 400 VALIDATION_FAILED lies. */
  readonly details: readonly ValidationIssue[] | undefined;

  constructor(init: {
    status: number;
    code: ApiRequestErrorCode;
    message: string;
    errorId?: string | undefined;
    details?: readonly ValidationIssue[] | undefined;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.errorId = init.errorId;
    this.details = init.details;
  }
}

/**
 * Spec §8: forbidden answers this console has no screen for, server failures and answers it cannot
 * read go to the general error page instead of being shown where they happened.
 */
export function isGlobalFailure(error: unknown): error is ApiRequestError {
  if (!(error instanceof ApiRequestError)) return false;
  return error.status >= 500 || error.status === 403 || error.code === 'UNEXPECTED_RESPONSE';
}

/** Only failures that a second attempt can fix are worth retrying. */
export function isTransientFailure(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.code === 'TIMEOUT' || error.code === 'NETWORK_ERROR');
}
