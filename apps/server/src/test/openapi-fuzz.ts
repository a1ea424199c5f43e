import fc from 'fast-check';

/** The part of a JSON Schema (as @fastify/swagger writes it from the zod schemas) the fuzzer reads. */
export type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};

export type OpenApiParameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: JsonSchema };
export type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

/** One operation of the document: `GET /api/v1/org-management/organization/{id}`. */
export type Operation = { method: string; path: string; operation: OpenApiOperation };

/** Who sends a request: the signed-in platform admin, a signed-in viewer, or nobody. */
export type Caller = 'admin' | 'viewer' | 'anonymous';

/** One request the fuzzer sends. */
export type FuzzRequest = {
  caller: Caller;
  method: string;
  /** Path and query string, already encoded. */
  url: string;
  body?: { contentType: string; text: string };
};

/**
 * What the fuzzer knows about the running server, so requests reach deep code: ids of real
 * things, and names that exist there (manifest ids, setting names, peripheral ids, commands).
 */
export type FuzzContext = { knownIds: string[]; knownNames: string[] };

const HTTP_METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/**
 * The schema with `$ref: '#/$defs/...'` replaced by the definitions they point at (as zod writes
 * recursive schemas), unrolled `depth` times; deeper references become "anything".
 */
export function inlineRefs(schema: JsonSchema, root: JsonSchema = schema, depth = 3): JsonSchema {
  if (schema.$ref) {
    const target = root.$defs?.[schema.$ref.replace('#/$defs/', '')];
    return target && depth > 0 ? inlineRefs(target, root, depth - 1) : {};
  }
  const out: JsonSchema = { ...schema };
  delete out.$defs;
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, inlineRefs(v, root, depth)]));
  if (schema.items) out.items = inlineRefs(schema.items, root, depth);
  if (schema.anyOf) out.anyOf = schema.anyOf.map((v) => inlineRefs(v, root, depth));
  if (schema.oneOf) out.oneOf = schema.oneOf.map((v) => inlineRefs(v, root, depth));
  return out;
}

/** Every operation of the document that a client can send, in a stable order (so seeds reproduce). */
export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (HTTP_METHODS.includes(method)) operations.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return operations.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/** Characters that broke or could break storage, parsing, paths and logs. */
const NASTY_CHARACTERS = ['\u0000', '\ud800', '\udfff', '\ufffe', '\u202e', '"', "'", '/', '\\', '%', '\n', '\r', '\t', '<', '&', '🎨'];

/** Text of any UTF-16 code units, lone surrogates and NUL included. */
const anyText = (maxLength: number) =>
  fc.string({
    maxLength,
    unit: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constantFrom(...NASTY_CHARACTERS) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
    ),
  });

/** Strings that are hostile to a server: storage, path tricks, formats, sizes. */
const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'x\ud800',
    '\udc00y',
    '../../../etc/passwd',
    '..%2F..%2Fetc',
    '[ORG]firmware.gbm0',
    'a.gbm0',
    'a.gbm4',
    '<script>alert(1)</script>',
    "'; drop table users; --",
    '0x1F',
    '0b101',
    '-0',
    '1e309',
    'NaN',
    'Infinity',
    'true',
    'null',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'On',
    'Off',
    'MANAGER',
    'manager',
    '255,99,20,30',
    '3,200,0,10,20,30',
  ),
  fc.constantFrom(200, 201, 1024, 10_001, 20_001, 100_001).map((n) => 'x'.repeat(n)),
  anyText(40),
);

/** Numbers past every range: int32, safe integers, doubles; and JSON's edge values. */
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, -0.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** An object or array nested deeper than any schema expects. */
const deepValue = fc.integer({ min: 20, max: 3000 }).map((depth) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
});

/** Any value of the wrong kind for whatever the schema wants. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom(null, true, false, [], {}, [[]], [null], { '': 1 }, { 'a\u0000': 1 }, JSON.parse('{"__proto__":{"polluted":true}}') as unknown),
  fc.array(hostileString, { maxLength: 3 }),
  deepValue,
  fc.jsonValue({ maxDepth: 3 }),
);

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

/** Text a person could type: letters, digits, spaces, punctuation, accents and emoji (nothing PostgreSQL refuses). */
const personText = (minLength: number, maxLength: number) =>
  fc.string({
    minLength,
    maxLength,
    unit: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constantFrom('é', 'ß', '日', '🎨', '"', '/', '\\', '\n') },
    ),
  });

function validString(schema: JsonSchema, context: FuzzContext): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...context.knownIds) }, { weight: 1, arbitrary: fc.uuid() });
  if (schema.format === 'email') return fc.oneof(fc.emailAddress(), fc.constantFrom('a@example.com', 'A@Example.COM'));
  const max = Math.min(schema.maxLength ?? 40, 40);
  const min = Math.min(schema.minLength ?? 0, max);
  const names = context.knownNames.filter((name) => name.length >= min && name.length <= (schema.maxLength ?? Infinity));
  const text = personText(min, max);
  return names.length ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: text }) : text;
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1_000_000;
  const max = schema.maximum ?? 1_000_000;
  return integer ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function validObject(schema: JsonSchema, context: FuzzContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {}).map(([key, property]) => {
    const value = validFor(property, context, depth + 1);
    return (required.has(key) ? value : fc.option(value, { freq: 2, nil: undefined })).map((v) => [key, v] as const);
  });
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)));
}

/** A value the schema accepts (mostly: patterns other than UUIDs are not followed), using ids and names that exist. */
export function validFor(schema: JsonSchema, context: FuzzContext, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((alternative) => validFor(alternative, context, depth)));
  if (depth > 6) return fc.constant(null);
  const kinds = typesOf(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return validString(schema, context);
      case 'integer':
        return validNumber(schema, true);
      case 'number':
        return validNumber(schema, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(validFor(schema.items ?? {}, context, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
      case 'object':
        return validObject(schema, context, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  });
  return kinds.length ? fc.oneof(...kinds) : fc.jsonValue({ maxDepth: 2 });
}

/** Every place in a JSON value (the value itself, each array item, each object property), in document order. */
function placesOf(value: unknown, at: (string | number)[] = [], places: (string | number)[][] = []): (string | number)[][] {
  places.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => placesOf(item, [...at, i], places));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) placesOf(item, [...at, key], places);
  return places;
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** `value` with the place at `path` holding `replacement` instead (a new value; the input is left alone). */
function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy: unknown[] = [...value];
    copy[head as number] = replaceAt(copy[head as number], rest, replacement);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  copy[head!] = replaceAt(copy[head!], rest, replacement);
  return copy;
}

/** A hostile stand-in for one valid value: mostly of its own kind (a string with a NUL in it), sometimes anything. */
function hostileLike(original: unknown): fc.Arbitrary<unknown> {
  if (typeof original === 'string') {
    const withUnsafe = fc.tuple(fc.constantFrom('\u0000', '\ud800', '\udc00'), fc.nat()).map(([unsafe, at]) => {
      const i = at % (original.length + 1);
      return `${original.slice(0, i)}${unsafe}${original.slice(i)}`;
    });
    return fc.oneof({ weight: 3, arbitrary: withUnsafe }, { weight: 2, arbitrary: hostileString }, { weight: 1, arbitrary: hostileValue });
  }
  if (typeof original === 'number') return fc.oneof({ weight: 2, arbitrary: hostileNumber }, { weight: 1, arbitrary: hostileValue });
  return hostileValue;
}

/** A known-good value as it is, or with one place made hostile: deep checks of a value no schema walk builds valid. */
export function mutationsOf(value: unknown): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 1, arbitrary: fc.constant(value) }, { weight: 4, arbitrary: withOneHostile(fc.constant(value)) });
}

/** A valid value with one place (a leaf, mostly) made hostile. */
function withOneHostile(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), fc.boolean()).chain(([value, pick, anyPlace]) => {
    const places = placesOf(value);
    const leaves = places.filter((path) => {
      const node = valueAt(value, path);
      return node === null || typeof node !== 'object';
    });
    const choices = anyPlace || !leaves.length ? places : leaves;
    const path = choices[pick % choices.length]!;
    return hostileLike(valueAt(value, path)).map((hostile) => replaceAt(value, path, hostile));
  });
}

/**
 * Values for a schema, of four kinds: valid ones (they reach the service and the database),
 * valid ones with exactly one place made hostile (the checks of one field at a time), valid ones
 * with a key the schema does not know, and anything at all.
 */
export function valueFor(schema: JsonSchema, context: FuzzContext): fc.Arbitrary<unknown> {
  const valid = validFor(schema, context);
  const oneHostile = withOneHostile(valid);
  const extraKey = fc.tuple(valid, fc.constantFrom('manifest', 'hardwareId', 'isPlatformAdmin', 'id', '__proto__'), hostileValue).map(([value, key, hostile]) =>
    value && typeof value === 'object' && !Array.isArray(value) ? { ...value, [key]: hostile } : value,
  );
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 3, arbitrary: oneHostile },
    { weight: 1, arbitrary: extraKey },
    { weight: 1, arbitrary: hostileValue },
  );
}

/**
 * A path or query value as a URL carries it. A lone surrogate has no UTF-8 form, so it is sent as
 * the bytes a broken client would send (CESU-8), which are not valid UTF-8.
 */
function encodeUrlPart(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return [...text]
    .map((character) => {
      const code = character.charCodeAt(0);
      if (character.length === 1 && code >= 0xd800 && code <= 0xdfff) {
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      }
      return encodeURIComponent(character);
    })
    .join('');
}

/** Path segments that are not what the route expects at all. */
const hostileSegment = fc.constantFrom('%00', '%', '%E0%A4%A', '..', '%2E%2E', '%2F', 'x'.repeat(300), '%ED%A0%80', '-1', '0', 'null');

/** Bodies that are not the JSON a route expects, or not JSON at all. */
const rawBodies = fc.constantFrom(
  { contentType: 'application/json', text: '{' },
  { contentType: 'application/json', text: '' },
  { contentType: 'application/json', text: 'null' },
  { contentType: 'application/json', text: '"text"' },
  { contentType: 'application/json', text: '[1,2,3]' },
  { contentType: 'application/json', text: '{"value":1e999,"name":1e999}' },
  { contentType: 'application/json', text: '{"__proto__":{"isPlatformAdmin":true},"name":"x"}' },
  { contentType: 'application/json', text: '{"constructor":{"prototype":{"isPlatformAdmin":true}}}' },
  { contentType: 'application/json', text: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
  { contentType: 'application/json', text: '{"name":"\\ud800","value":"\\u0000"}' },
  { contentType: 'application/json; charset=latin1', text: '{"name":"x"}' },
  { contentType: 'text/plain', text: 'name=x' },
  { contentType: 'application/x-www-form-urlencoded', text: 'name=x&siteId=y' },
  { contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.gbm0"\r\n\r\nabc\r\n--x--\r\n' },
  { contentType: 'application/octet-stream', text: '\u0000\u0001' },
);

/** Requests for one operation: schema-shaped and hostile params, query and body, from any caller. */
export function requestFor(op: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const parameters = op.operation.parameters ?? [];
  const pathParameters = parameters.filter((p) => p.in === 'path');
  const queryParameters = parameters.filter((p) => p.in === 'query');
  const pathSegments = fc.tuple(
    ...pathParameters.map((p) =>
      fc.oneof({ weight: 6, arbitrary: valueFor(p.schema ?? {}, context).map(encodeUrlPart) }, { weight: 1, arbitrary: hostileSegment }),
    ),
  );
  const queryPairs = fc.tuple(
    ...queryParameters.map((p) => fc.option(valueFor(p.schema ?? {}, context), { freq: p.required ? 10 : 2, nil: undefined }).map((value) => [p.name, value] as const)),
  );
  const bodySchema = op.operation.requestBody?.content?.['application/json']?.schema;
  const jsonBody = valueFor(bodySchema ?? {}, context).map((value) => ({ contentType: 'application/json', text: JSON.stringify(value) ?? 'null' }));
  const body = fc.oneof(
    { weight: bodySchema ? 8 : 1, arbitrary: jsonBody },
    { weight: 1, arbitrary: rawBodies },
    { weight: bodySchema ? 1 : 6, arbitrary: fc.constant(undefined) },
  );
  const caller = fc.constantFrom<Caller>('admin', 'admin', 'admin', 'viewer', 'anonymous');
  return fc.record({ segments: pathSegments, query: queryPairs, body, caller }).map(({ segments, query, body: sent, caller: who }) => {
    let index = 0;
    const path = op.path.replace(/\{[^}]+\}/g, () => segments[index++] ?? '');
    const search = query
      .filter(([, value]) => value !== undefined)
      .flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v] as const) : [[name, value] as const]))
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeUrlPart(value)}`)
      .join('&');
    // GET and HEAD carry no body through fetch.
    const canCarryBody = op.method !== 'GET';
    return { caller: who, method: op.method, url: search ? `${path}?${search}` : path, body: canCarryBody ? sent : undefined };
  });
}
