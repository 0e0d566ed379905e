import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode, ValidationIssue } from '@verbatim/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors/app-error.js';
import { StorageUnavailableError } from '../platform/storage/file-storage.js';

const locations = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
} as const satisfies Record<string, ValidationIssue['location']>;

function validationIssues(
  error: FastifyError & { validation: { instancePath: string; message?: string }[] },
) {
  const location = locations[error.validationContext ?? 'body'];
  return error.validation.map((issue): ValidationIssue => ({
    location,
    path: issue.instancePath
      .split('/')
      .filter(Boolean)
      .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)),
    message: issue.message ?? 'Invalid value',
  }));
}

/** The plain errors of the multipart parser (busboy) on a body it cannot read. */
const multipartParserErrors = [
  'Multipart: Boundary not found',
  'The needle cannot be an empty String/Buffer.',
  'The needle cannot have a length bigger than 256.',
  'Unexpected end of multipart data',
];

/** A store that failed is usually back within seconds (a restart, a network blip). */
const storageRetryAfterSeconds = 5;

/** Turns anything thrown while handling a request into an AppError; undefined means "ours, 5xx". */
export function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof StorageUnavailableError) {
    return new AppError(
      'STORAGE_UNAVAILABLE',
      'The file store is not available right now. Please try again in a moment.',
      undefined,
      { cause: error, retryAfterSeconds: storageRetryAfterSeconds },
    );
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return new AppError('VALIDATION_FAILED', 'The request is not valid.', validationIssues(error));
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('MALFORMED_JSON', 'The body is empty but the content type says JSON.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('MALFORMED_JSON', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than this endpoint accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'This endpoint does not accept that content type.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('URI_TOO_LONG', 'A part of the address is longer than any this API takes.');
    case 'FST_ERR_BAD_URL':
      return new AppError('BAD_REQUEST', 'The address is not valid: it has a malformed percent-encoding.');
    default:
      break;
  }
  // No boundary in the Content-Type, one longer than multipart allows, or parts that never end.
  if (error instanceof Error && multipartParserErrors.includes(error.message)) {
    return new AppError(
      'BAD_REQUEST',
      'The multipart body cannot be read: its Content-Type needs a boundary of 1 to 70 characters, and its parts must end with it.',
    );
  }
  // The JSON parser throws a plain SyntaxError carrying a 400 status.
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new AppError('MALFORMED_JSON', 'The body is not valid JSON.');
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 404) return new AppError('ROUTE_NOT_FOUND', 'Not found.');
    if (status === 405) return new AppError('METHOD_NOT_ALLOWED', 'Method not allowed.');
    if (status === 414) return new AppError('URI_TOO_LONG', 'The address is too long.');
    if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'The request is too large.');
    if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type.');
    if (status === 429) return new AppError('RATE_LIMITED', 'Too many requests. Please slow down.');
    // Fastify's own 4xx messages describe the request, never the server.
    return new AppError('BAD_REQUEST', fastifyError.message ?? 'Bad request.');
  }
  return undefined;
}

/** The product's error body (`ApiError`) of anything thrown while handling a request. */
export interface ErrorAnswer {
  status: number;
  body: { code: ErrorCode; message: string; details?: ValidationIssue[]; errorId?: string };
}

/**
 * The one place where errors become HTTP answers: logs what must be logged, sets Retry-After, and
 * returns the status and body. 5xx bodies carry an error id, never internals.
 */
export function errorAnswer(error: unknown, request: FastifyRequest, reply: FastifyReply): ErrorAnswer {
  const appError = toAppError(error);
  if (appError?.retryAfterSeconds !== undefined)
    reply.header('retry-after', String(appError.retryAfterSeconds));
  if (appError && appError.statusCode < 500) {
    if (appError.statusCode === 429) request.log.warn({ code: appError.code }, 'rate limited');
    return {
      status: appError.statusCode,
      body: {
        code: appError.code,
        message: appError.message,
        ...(appError.details ? { details: appError.details } : {}),
      },
    };
  }
  const errorId = request.id;
  // A full or unavailable speech engine, a store that failed, or a third party that cannot be
  // reached (a Retry-After says when to try again) is a state, not a failure of ours: its message
  // tells the client what happened; the reason is in the cause.
  const passing =
    appError !== undefined && (appError.statusCode === 503 || appError.retryAfterSeconds !== undefined);
  if (passing) {
    request.log.warn(
      { code: appError.code, errorId, ...(appError.cause ? { err: appError.cause } : {}) },
      appError.message,
    );
  } else request.log.error({ err: error, errorId }, 'request failed');
  const status = appError?.statusCode ?? 500;
  return {
    status,
    body: {
      code: appError?.code ?? 'INTERNAL_ERROR',
      message:
        passing && appError
          ? appError.message
          : 'Something went wrong on our side. Please try again later; if it keeps happening, contact us with the error id.',
      errorId,
    },
  };
}

/** Sends the error answer of `error`; also Fastify's `frameworkErrors` (bad URL, too long a parameter). */
export function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, body } = errorAnswer(error, request, reply);
  return reply.status(status).send(body);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
}

/**
 * Requests Node.js's HTTP parser refuses before Fastify sees them (Fastify's `clientErrorHandler`):
 * the same answers as Fastify's own handler (431, 408, 400), in the product's error shape.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'HEADERS_TOO_LARGE',
          'The address and headers of the request are larger than this server reads.',
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'BAD_REQUEST', 'The request took too long to arrive.']
        : [400, 'BAD_REQUEST', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
