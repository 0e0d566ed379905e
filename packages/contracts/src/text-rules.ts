import { z } from 'zod';

/**
 * Which control characters (C0, U+0000 to U+001F) a string the API reads may hold. PostgreSQL
 * refuses NUL in text, and an identifier, a name or any one-line value has no use for a control
 * character; free text (a prompt, a note, a transcript) may hold tabs and line breaks.
 *
 * The server applies a rule to every string of every request (path parameters: `singleLine`;
 * query, headers, JSON and form bodies: `freeText`) and refuses the others with 400
 * VALIDATION_FAILED naming the field; the OpenAPI document states the rule of each string as its
 * `pattern`. A schema states the stricter rule of a one-line field in a body or a query with
 * `singleLineString()`.
 */
export const textRules = {
  // eslint-disable-next-line no-control-regex -- the rule is about control characters
  singleLine: { pattern: /^[^\x00-\x1f]*$/, message: 'Must not contain control characters' },
  freeText: {
    // eslint-disable-next-line no-control-regex -- the rule is about control characters
    pattern: /^[^\x00-\x08\x0b\x0c\x0e-\x1f]*$/,
    message: 'Must not contain control characters other than tabs and line breaks',
  },
} as const;
export type TextRule = keyof typeof textRules;

/** A string of one line: no control character at all. */
export function singleLineString() {
  return z.string().regex(textRules.singleLine.pattern, textRules.singleLine.message);
}

/** Our own ids and those of the CRMs (`fil_…`, `int_…`, a HubSpot contact id): one line, 1 to 64 characters. */
export const identifierSchema = singleLineString().min(1).max(64);
