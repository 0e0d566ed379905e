/**
 * Requests built from the OpenAPI document alone, for tests that walk every operation: a valid
 * sample of every parameter and body, the string fields in it, and whether the document calls a
 * value of such a field invalid. Enough JSON Schema for the product's own document, not more.
 */

export type JsonSchema = Record<string, unknown>;
export type FieldLocation = 'path' | 'query' | 'header' | 'body';

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}
export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, unknown>[];
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** A string field of a sample request: where it is, and every schema its value may satisfy. */
export interface StringField {
  location: FieldLocation;
  /** Inside the body: the path of the field; elsewhere the parameter's name alone. */
  path: (string | number)[];
  alternatives: JsonSchema[];
}

export type BodyKind = 'json' | 'multipart' | 'form';

export interface SampleRequest {
  method: string;
  /** The OpenAPI path with its `{parameters}`. */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: { kind: BodyKind; value: Record<string, unknown>; files: string[] };
  fields: StringField[];
  /** Optional parameters and properties: a field is sent with the required ones alone. */
  optional: { location: FieldLocation; path: (string | number)[] }[];
  /** Whether the operation takes a credential (the token endpoint reads Authorization as a client's). */
  secured: boolean;
}

const httpMethods = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Strings tried, in order, for a field with a pattern: the first that the schema takes is used. */
const patternCandidates = [
  'abc12345',
  'en',
  'fr',
  'audio/wav',
  'a@example.com',
  'photo.jpg',
  'recording.wav',
  'https://example.com/recording.wav',
  'a'.repeat(43),
  `google.${'a'.repeat(20)}`,
  'a'.repeat(40).replace(/a/g, '0'),
  '0'.repeat(64),
  'Correct-Horse-9',
  'Jane Doe',
  'S1',
];

export function resolveSchema(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  let current = schema ?? {};
  for (let depth = 0; typeof current.$ref === 'string' && depth < 10; depth += 1) {
    const name = current.$ref.split('/').pop() ?? '';
    current = document.components?.schemas?.[name] ?? {};
  }
  return current;
}

function patternsOf(schema: JsonSchema): RegExp[] {
  const own = typeof schema.pattern === 'string' ? [schema.pattern] : [];
  const nested = Array.isArray(schema.allOf)
    ? (schema.allOf as JsonSchema[]).flatMap((part) =>
        typeof part.pattern === 'string' ? [part.pattern] : [],
      )
    : [];
  return [...own, ...nested].map((pattern) => new RegExp(pattern));
}

const uriCharacters = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

/** Whether a string satisfies one string schema of the document (the keywords the document uses). */
export function stringSatisfies(schema: JsonSchema, value: string): boolean {
  if (Array.isArray(schema.enum)) return schema.enum.includes(value);
  if ('const' in schema) return schema.const === value;
  const length = [...value].length;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (schema.format === 'uri' && !(uriCharacters.test(value) && URL.canParse(value))) return false;
  if (schema.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return false;
  return patternsOf(schema).every((pattern) => pattern.test(value));
}

function sampleString(schema: JsonSchema): string | undefined {
  // 'true' of a boolean flag: options that need a flag set (speakers need diarize) are then valid.
  if (Array.isArray(schema.enum)) return String(schema.enum.includes('true') ? 'true' : schema.enum[0]);
  if (typeof schema.const === 'string') return schema.const;
  if (schema.format === 'binary') return undefined;
  if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
  if (schema.format === 'uri') return 'https://example.com/recording.wav';
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const candidates = [...patternCandidates, 'a'.repeat(Math.max(minLength, 8))];
  return candidates.find((candidate) => stringSatisfies(schema, candidate));
}

function isStringSchema(schema: JsonSchema): boolean {
  return (
    schema.type === 'string' ||
    (Array.isArray(schema.type) && schema.type.includes('string')) ||
    (schema.type === undefined && (typeof schema.const === 'string' || Array.isArray(schema.enum)))
  );
}

/** Whether a schema holds a string somewhere (a string, or an object or list with one). */
function carriesText(document: OpenApiDocument, raw: JsonSchema | undefined, depth = 0): boolean {
  const schema = resolveSchema(document, raw);
  if (depth > 8) return false;
  if (isStringSchema(schema)) return true;
  const nested = [
    ...Object.values((schema.properties ?? {}) as Record<string, JsonSchema>),
    ...(options(schema) ?? []),
    ...(schema.items ? [schema.items as JsonSchema] : []),
  ];
  return nested.some((child) => carriesText(document, child, depth + 1));
}

interface Sampler {
  document: OpenApiDocument;
  /** Which branch of every anyOf/oneOf to take (the last one when there are fewer). */
  branch: number;
  location: FieldLocation;
  fields: StringField[];
  files: string[];
  optional: SampleRequest['optional'];
}

function options(schema: JsonSchema): JsonSchema[] | undefined {
  const list = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(list) ? list : undefined;
}

/** A valid value of `schema` with every optional property present; string leaves go to `fields`. */
function sample(sampler: Sampler, raw: JsonSchema | undefined, path: (string | number)[]): unknown {
  const schema = resolveSchema(sampler.document, raw);
  const choices = options(schema)
    ?.map((choice) => resolveSchema(sampler.document, choice))
    .filter((choice) => choice.type !== 'null');
  if (choices && choices.length > 0) {
    const chosen = choices[Math.min(sampler.branch, choices.length - 1)] ?? {};
    if (isStringSchema(chosen)) {
      const value = sampleString(chosen);
      if (value === undefined) throw new Error(`no sample for ${path.join('.')}: ${JSON.stringify(chosen)}`);
      sampler.fields.push({
        location: sampler.location,
        path,
        alternatives: choices.filter(isStringSchema),
      });
      return value;
    }
    return sample(sampler, { ...schema, anyOf: undefined, oneOf: undefined, ...chosen }, path);
  }
  if (isStringSchema(schema)) {
    if (schema.format === 'binary') {
      sampler.files.push(String(path.at(-1)));
      return undefined;
    }
    const value = sampleString(schema);
    if (value === undefined) throw new Error(`no sample for ${path.join('.')}: ${JSON.stringify(schema)}`);
    sampler.fields.push({ location: sampler.location, path, alternatives: [schema] });
    return value;
  }
  if (schema.type === 'object' || schema.properties) {
    const value: Record<string, unknown> = {};
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      if (!required.has(name)) {
        // Optional numbers and flags are left out: they carry no text.
        if (!carriesText(sampler.document, property)) continue;
        sampler.optional.push({ location: sampler.location, path: [...path, name] });
      }
      const propertyValue = sample(sampler, property, [...path, name]);
      if (propertyValue !== undefined) value[name] = propertyValue;
    }
    return value;
  }
  if (schema.type === 'array') {
    const item = sample(sampler, schema.items as JsonSchema | undefined, [...path, 0]);
    return item === undefined ? [] : [item];
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const minimum = typeof schema.minimum === 'number' ? schema.minimum : 1;
    return typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : Math.max(minimum, 1);
  }
  if (schema.type === 'boolean') return true;
  return undefined;
}

/** Which body the sample sends: JSON first, then a form; raw audio bodies have no string field. */
function chooseBody(operation: OpenApiOperation): [BodyKind, JsonSchema | undefined] | undefined {
  const content = operation.requestBody?.content ?? {};
  if (content['application/json']) return ['json', content['application/json'].schema];
  if (content['multipart/form-data']) return ['multipart', content['multipart/form-data'].schema];
  if (content['application/x-www-form-urlencoded'])
    return ['form', content['application/x-www-form-urlencoded'].schema];
  return undefined;
}

/** One sample request per union branch of every API operation of the document (deduplicated). */
export function sampleRequests(document: OpenApiDocument): SampleRequest[] {
  const requests: SampleRequest[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      const seen = new Set<string>();
      for (let branch = 0; branch < 3; branch += 1) {
        const fields: StringField[] = [];
        const files: string[] = [];
        const optional: SampleRequest['optional'] = [];
        const secured = (operation.security ?? []).length > 0;
        const request: SampleRequest = {
          method,
          path,
          params: {},
          query: {},
          headers: {},
          fields,
          optional,
          secured,
        };
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'cookie') continue;
          const location = parameter.in;
          if (!parameter.required) optional.push({ location, path: [parameter.name] });
          const sampler: Sampler = { document, branch, location, fields, files, optional };
          const value = sample(sampler, parameter.schema, [parameter.name]);
          const text = Array.isArray(value) ? String(value[0]) : String(value);
          const target = { path: request.params, query: request.query, header: request.headers }[location];
          target[parameter.name] = text;
        }
        const body = chooseBody(operation);
        if (body) {
          const sampler: Sampler = { document, branch, location: 'body', fields, files, optional };
          const value = sample(sampler, body[1], []);
          request.body = { kind: body[0], value: (value ?? {}) as Record<string, unknown>, files };
        }
        const key = JSON.stringify(request);
        if (seen.has(key)) continue;
        seen.add(key);
        requests.push(request);
      }
    }
  }
  return requests;
}

function setAt(target: Record<string, unknown>, path: (string | number)[], value: string): void {
  let node: Record<string | number, unknown> = target;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1);
  if (last !== undefined) node[last] = value;
}

function isPrefix(prefix: (string | number)[], path: (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => path[index] === segment);
}

function removeAt(target: Record<string | number, unknown>, path: (string | number)[]): void {
  let node: unknown = target;
  for (const key of path.slice(0, -1)) {
    node = (node as Record<string | number, unknown> | undefined)?.[key];
    if (node === undefined) return;
  }
  const last = path.at(-1);
  if (last !== undefined && node && typeof node === 'object')
    delete (node as Record<string | number, unknown>)[last];
}

/** The sample with its required parameters and properties, and the optional ones on the way to `field`. */
export function requiredWith(request: SampleRequest, field?: StringField): SampleRequest {
  const copy = structuredClone(request);
  const targets = { path: copy.params, query: copy.query, header: copy.headers };
  for (const entry of copy.optional) {
    if (field && field.location === entry.location && isPrefix(entry.path, field.path)) continue;
    if (entry.location === 'body') {
      if (copy.body) removeAt(copy.body.value, entry.path);
    } else removeAt(targets[entry.location], entry.path);
  }
  return copy;
}

/** The sample request (required fields) with one string field set to `value`. */
export function withField(request: SampleRequest, field: StringField, value: string): SampleRequest {
  const copy = requiredWith(request, field);
  const name = String(field.path[0]);
  if (field.location === 'path') copy.params[name] = value;
  else if (field.location === 'query') copy.query[name] = value;
  else if (field.location === 'header') copy.headers[name] = value;
  else if (copy.body) setAt(copy.body.value, field.path, value);
  return copy;
}

/** The sample's current value of a field. */
export function fieldValue(request: SampleRequest, field: StringField): string {
  const name = String(field.path[0]);
  if (field.location === 'path') return request.params[name] ?? '';
  if (field.location === 'query') return request.query[name] ?? '';
  if (field.location === 'header') return request.headers[name] ?? '';
  let node: unknown = request.body?.value;
  for (const key of field.path) node = (node as Record<string | number, unknown>)[key];
  return String(node);
}

/** Whether the document calls a value of the field invalid (no alternative of it takes the value). */
export function documentRefuses(field: StringField, value: string): boolean {
  return !field.alternatives.some((schema) => stringSatisfies(schema, value));
}

const fileBytes = Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1');

/** The request as app.inject takes it. */
export function injectOptions(
  request: SampleRequest,
  headers: Record<string, string>,
  remoteAddress: string,
) {
  const url = request.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
    encodeURIComponent(request.params[name] ?? ''),
  );
  const query = new URLSearchParams(request.query).toString();
  const base = {
    method: request.method.toUpperCase() as 'GET',
    url: query ? `${url}?${query}` : url,
    headers: { ...(request.secured ? headers : {}), ...request.headers },
    remoteAddress,
  };
  const body = request.body;
  if (!body) return base;
  if (body.kind === 'json') return { ...base, payload: body.value };
  if (body.kind === 'form') {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(body.value)) form.append(name, String(value));
    return {
      ...base,
      headers: { ...base.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    };
  }
  const boundary = 'sample-boundary-7f3a';
  const parts: Buffer[] = [];
  const appendPart = (header: string, content: Buffer) =>
    parts.push(Buffer.from(`--${boundary}\r\n${header}\r\n\r\n`), content, Buffer.from('\r\n'));
  for (const [name, value] of Object.entries(body.value)) {
    for (const item of [value].flat())
      appendPart(`Content-Disposition: form-data; name="${name}"`, Buffer.from(String(item)));
  }
  for (const name of body.files) {
    appendPart(
      `Content-Disposition: form-data; name="${name}"; filename="recording.wav"\r\nContent-Type: audio/wav`,
      fileBytes,
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    ...base,
    headers: { ...base.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  };
}
