import { textRules, type TextRule } from '@verbatim/contracts';
import type { DocumentPaths } from './openapi-contract.js';
import { textRuleOfLocation } from './control-characters.js';

/**
 * States in the OpenAPI document the control-character rule the server applies to every string it
 * reads (control-characters.ts): each string schema of a parameter or a request body gets the
 * `pattern` of its location's rule, unless it already states a rule of its own (a schema made
 * with `singleLineString()`). A string with another pattern gets the rule beside it, in `allOf`.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  in?: string;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
export interface DocumentWithComponents extends DocumentPaths {
  components?: { schemas?: Record<string, Schema> };
}

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'patch']);
const rulePatterns = new Set(Object.values(textRules).map((rule) => rule.pattern.source));
/** Patterns made by mergedPattern: they state a rule too (a component is reached from many operations). */
const mergedPatterns = new Set<string>();
const ruleOfParameter: Record<string, TextRule> = {
  path: textRuleOfLocation.params,
  query: textRuleOfLocation.query,
  header: textRuleOfLocation.headers,
};

function isTextSchema(schema: Schema): boolean {
  const types = [schema.type].flat();
  if (!types.includes('string')) return false;
  // A closed list of values, or a file's bytes: no text the rule could apply to.
  return !('enum' in schema) && !('const' in schema) && schema.format !== 'binary';
}

function statesRule(schema: Schema): boolean {
  const parts = Array.isArray(schema.allOf) ? (schema.allOf as Schema[]) : [];
  return [schema, ...parts].some(
    (part) =>
      typeof part.pattern === 'string' &&
      (rulePatterns.has(part.pattern) || mergedPatterns.has(part.pattern)),
  );
}

/**
 * "Contains a character of [^A]" (a filled-text pattern) and the rule "only characters of [^B]" as
 * one pattern, ^[^B]*[^AB][^B]*$: fuzzers generate strings for one pattern, but cannot merge two
 * in allOf (schemathesis filtered nearly every value it made, or sent a body of another type).
 */
function mergedPattern(existing: string, rulePattern: string): string | undefined {
  const contains = /^\[\^([^\]]*)\]$/.exec(existing);
  const only = /^\^\[\^([^\]]*)\]\*\$$/.exec(rulePattern);
  if (!contains || !only) return undefined;
  const allowed = `[^${only[1]}]*`;
  return `^${allowed}[^${contains[1]}${only[1]}]${allowed}$`;
}

/**
 * An anchored pattern built only of literal characters, ranges of printable ones and escapes other
 * than whitespace or code points matches no control character the rules refuse: it already states
 * them, and a second pattern beside it would only make fuzzers filter out what they generate.
 */
function admitsNoControlCharacter(pattern: string, rule: TextRule): boolean {
  const escapes = textRules[rule].pattern.test('\t') ? /\\[sSWDxu0cv]/ : /\\[sSWDxu0cvtnr]/;
  return /^\^.*\$$/.test(pattern) && !/\[\^|(?<!\\)\./.test(pattern) && !escapes.test(pattern);
}

function addRule(schema: Schema, rule: TextRule): void {
  if (!isTextSchema(schema) || statesRule(schema)) return;
  if (typeof schema.pattern === 'string' && admitsNoControlCharacter(schema.pattern, rule)) return;
  const pattern = textRules[rule].pattern.source;
  if (typeof schema.pattern !== 'string') schema.pattern = pattern;
  else {
    const merged = mergedPattern(schema.pattern, pattern);
    if (merged) {
      mergedPatterns.add(merged);
      schema.pattern = merged;
    } else schema.allOf = [...(Array.isArray(schema.allOf) ? (schema.allOf as Schema[]) : []), { pattern }];
  }
}

function walk(document: DocumentWithComponents, schema: unknown, rule: TextRule, seen: Set<unknown>): void {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
  seen.add(schema);
  const node = schema as Schema;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.split('/').pop() ?? '';
    walk(document, document.components?.schemas?.[name], rule, seen);
    return;
  }
  addRule(node, rule);
  const children = [
    ...Object.values((node.properties ?? {}) as Record<string, unknown>),
    node.items,
    node.additionalProperties,
    ...[node.anyOf, node.oneOf, node.allOf, node.prefixItems].flatMap((list) =>
      Array.isArray(list) ? (list as unknown[]) : [],
    ),
  ];
  for (const child of children) walk(document, child, rule, seen);
}

/** Adds the rules to every `/api/v1/` operation of the document, in place. */
export function stateTextRules(document: DocumentWithComponents): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const [method, value] of Object.entries(item)) {
      if (!httpMethods.has(method)) continue;
      const operation = value as Operation;
      for (const parameter of operation.parameters ?? []) {
        const rule = ruleOfParameter[parameter.in ?? ''];
        if (rule) walk(document, parameter.schema, rule, new Set());
      }
      for (const media of Object.values(operation.requestBody?.content ?? {}))
        walk(document, media.schema, textRuleOfLocation.body, new Set());
    }
  }
}
