import { z } from 'zod';

/**
 * What the OpenAPI document says of every API operation beyond its own schemas, because the server
 * does it for every route: errors are JSON in the product's error shape (ApiError), whatever the
 * success answer's media type (a PDF, a photo, an HTML page); any route may answer a 4xx (405, 413,
 * 414, 415, 429 come from the framework, before the route runs) or a 5xx; a body the route's schema
 * accepts absent is not required.
 */

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}
interface Operation {
  requestBody?: { required?: boolean };
  responses?: Record<string, ResponseObject>;
}
export interface DocumentPaths {
  /** Path items: operations under the method names, other fields (parameters, summary) beside them. */
  paths?: Record<string, Record<string, unknown>>;
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const apiError = { $ref: '#/components/schemas/ApiError' };

/** Whether a route's body schema (zod) accepts a request without a body. */
export function acceptsNoBody(schema: unknown): boolean {
  return schema instanceof z.ZodType && schema.safeParse(undefined).success;
}

function errorResponse(description: string): ResponseObject {
  return { description, content: { 'application/json': { schema: apiError } } };
}

const isError = (status: string) => /^[45]/.test(status);

/** Completes every operation under `/api/v1/` as the module comment says; `optionalBodies` holds "post /api/v1/…" keys. */
export function completeApiOperations(document: DocumentPaths, optionalBodies: ReadonlySet<string>): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const [method, value] of Object.entries(item)) {
      if (!httpMethods.has(method)) continue;
      const operation = value as Operation;
      const responses = (operation.responses ??= {});
      for (const [status, response] of Object.entries(responses)) {
        if (!isError(status) || !response.content) continue;
        const mediaTypes = Object.keys(response.content);
        if (mediaTypes.every((type) => type === 'application/json')) continue;
        // A route's `produces` (application/pdf, image/jpeg) describes its success answer only.
        const schema = Object.values(response.content)[0]?.schema ?? apiError;
        response.content = { 'application/json': { schema } };
      }
      const statuses = Object.keys(responses);
      if (!statuses.some((status) => status.startsWith('4')))
        responses['4XX'] = errorResponse('The request was refused (ApiError: code and message).');
      if (!statuses.some((status) => status.startsWith('5')))
        responses['5XX'] = errorResponse('The server failed (ApiError with an errorId) or is not ready.');
      const openApiPath = path.replace(/\{(\w+)\}/g, ':$1');
      if (operation.requestBody && optionalBodies.has(`${method} ${openApiPath}`))
        operation.requestBody.required = false;
    }
  }
}
