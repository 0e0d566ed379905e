import { textRules, type TextRule, type ValidationIssue } from '@verbatim/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error.js';

/**
 * One rule for the control characters of every input (see `textRules` in the contracts): a string
 * in a path parameter is one line; one in the query, a header, a JSON or form body may hold tabs
 * and line breaks but no other control character (NUL above all, which PostgreSQL refuses in text).
 * Schemas state stricter rules for their one-line fields; the OpenAPI document states both.
 */
export const textRuleOfLocation = {
  params: 'singleLine',
  query: 'freeText',
  headers: 'freeText',
  body: 'freeText',
} as const satisfies Record<ValidationIssue['location'], TextRule>;

/**
 * Parsed JSON, query strings, parameters and headers (the router and the query parser make
 * objects of their own prototypes): a Buffer or a stream is a file, not text.
 */
function isFieldMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return false;
  return typeof (value as { pipe?: unknown }).pipe !== 'function';
}

function collectIssues(
  value: unknown,
  location: ValidationIssue['location'],
  path: (string | number)[],
  issues: ValidationIssue[],
): void {
  const rule = textRules[textRuleOfLocation[location]];
  if (typeof value === 'string') {
    if (!rule.pattern.test(value)) issues.push({ location, path, message: rule.message });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectIssues(item, location, [...path, index], issues));
    return;
  }
  if (!isFieldMap(value)) return;
  for (const [key, item] of Object.entries(value)) {
    if (!rule.pattern.test(key)) issues.push({ location, path: [...path, key], message: rule.message });
    collectIssues(item, location, [...path, key], issues);
  }
}

/** The strings of `value` (a parsed query, body, …) that break the rule of their location. */
export function controlCharacterIssues(
  value: unknown,
  location: ValidationIssue['location'],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  collectIssues(value, location, [], issues);
  return issues;
}

/** The 400 VALIDATION_FAILED of the strings that break their location's rule, naming each field; undefined when none does. */
export function controlCharacterRefusal(
  ...parts: [value: unknown, location: ValidationIssue['location']][]
): AppError | undefined {
  const issues = parts.flatMap(([value, location]) => controlCharacterIssues(value, location));
  if (issues.length === 0) return undefined;
  const fields = issues.map((issue) => `${issue.path.join('.') || '(body)'} (${issue.location})`);
  return new AppError(
    'VALIDATION_FAILED',
    `The request is not valid: ${fields.join(', ')} must not contain control characters.`,
    issues,
  );
}

/** Throws the refusal when a string of `value` breaks the rule of its location (form fields read by a handler). */
export function refuseControlCharacters(value: unknown, location: ValidationIssue['location']): void {
  const refusal = controlCharacterRefusal([value, location]);
  if (refusal) throw refusal;
}

/**
 * Checks every request after its route's schema (whether or not it has one) and before its
 * handler: the path parameters, the query, the headers and a parsed body, as the schema left them
 * (properties it does not declare are dropped, so what the document allows as extra stays
 * allowed). Bodies a handler reads itself (multipart, the identity provider's forms) are checked
 * where they are read.
 */
export function registerControlCharacterRule(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    done(
      controlCharacterRefusal(
        [request.params, 'params'],
        [request.query, 'query'],
        [request.headers, 'headers'],
        [request.body, 'body'],
      ),
    );
  });
}
