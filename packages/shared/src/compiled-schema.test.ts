import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSchema, compileWithReport, INVALID } from './compiled-schema.js';
import {
  AnnounceMessageSchema,
  FirmwareProgressSchema,
  HeartbeatMessageSchema,
  LogMessageSchema,
  PropMessageSchema,
  ResultMessageSchema,
  StatusMessageSchema,
} from './mqtt-protocol.js';
import { SdkMessageSchema } from './sdk-protocol.js';

type Def = Record<string, unknown> & { type: string; checks?: { _zod: { def: Record<string, unknown> } }[] };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const optinOf = (schema: unknown): unknown => (schema as { _zod: { optin?: unknown } })._zod.optin;

/** The bounds a node's checks set (lengths for strings and arrays, values for numbers). */
function bounds(def: Def): { min?: number; max?: number; int: boolean } {
  const found: { min?: number; max?: number; int: boolean } = { int: false };
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length' || c.check === 'greater_than') found.min = Number(c.minimum ?? c.value);
    if (c.check === 'max_length' || c.check === 'less_than') found.max = Number(c.maximum ?? c.value);
    if (c.check === 'number_format') found.int = true;
  }
  return found;
}

/**
 * Values that are wrong for most nodes, and right for some: wrong types, the edges of numbers,
 * strings one past a bound, empty and foreign objects and arrays.
 */
function edgeValues(def: Def): fc.Arbitrary<unknown> {
  const { min, max } = bounds(def);
  const near = [min, max].filter((n): n is number => n !== undefined && Number.isFinite(n) && Math.abs(n) < 20_000);
  const strings = near.flatMap((n) => [Math.max(0, n - 1), n, n + 1].map((length) => 'é'.repeat(length)));
  const numbers = near.flatMap((n) => [n - 1, n - 0.5, n, n + 0.5, n + 1]);
  return fc.constantFrom<unknown>(null, true, false, 0, -0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53) - 2, 1e308, '', 'x', 'On', 'true', [], [1], {}, { a: 1 }, undefined, ...strings, ...numbers);
}

/** Payloads for a schema: mostly fitting it, with wrong values mixed in at every depth. */
function payloads(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  return fc.oneof({ weight: 10, arbitrary: fitting(schema, depth) }, { weight: 1, arbitrary: edgeValues(def) });
}

function fitting(schema: unknown, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const { min, max, int } = bounds(def);
  switch (def.type) {
    case 'string':
      if (def.format === 'datetime') {
        const date = fc.date({ min: new Date(0), max: new Date(4_102_444_800_000), noInvalidDate: true });
        return fc.oneof(date.map((d) => d.toISOString()), date.map((d) => d.toISOString().replace('Z', '+02:00')), fc.string());
      }
      return fc.oneof(fc.string({ minLength: min ?? 0, maxLength: Math.min(max ?? 12, 12) }), fc.string({ unit: 'binary', maxLength: 8 }));
    case 'number':
      return int
        ? fc.integer({ min: Math.max(min ?? -(2 ** 31), Number.MIN_SAFE_INTEGER), max: Math.min(max ?? 2 ** 31, Number.MAX_SAFE_INTEGER) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
    case 'enum':
      return fc.constantFrom(...(schema as { _zod: { values: Set<unknown> } })._zod.values);
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'optional':
    case 'default':
      return fc.option(payloads(def.innerType, depth), { nil: undefined });
    case 'nullable':
      return fc.option(payloads(def.innerType, depth), { nil: null });
    case 'pipe':
      return fitting(def.in, depth);
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((option) => fitting(option, depth)));
    case 'array':
      if (depth > 3) return fc.constant([]);
      return fc.array(payloads(def.element, depth + 1), { minLength: min ?? 0, maxLength: Math.min(max ?? 3, 3) });
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, payloads(field, depth + 1)]));
      // Keys a payload may leave out are left out sometimes; the others are always there (or wrong).
      const requiredKeys = Object.keys(shape).filter((key) => optinOf(shape[key]) === undefined);
      const record = fc.record(fields, { requiredKeys });
      const extra = fc.option(fc.dictionary(fc.constantFrom('extra', 'type', 'value', '__proto__'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), { nil: undefined });
      return fc.tuple(record, extra).map(([fitted, more]) => (more ? { ...more, ...fitted } : fitted));
    }
    default:
      throw new Error(`no payloads for zod type ${def.type}`);
  }
}

const SCHEMAS = {
  PropMessageSchema,
  HeartbeatMessageSchema,
  StatusMessageSchema,
  LogMessageSchema,
  ResultMessageSchema,
  FirmwareProgressSchema,
  AnnounceMessageSchema,
  SdkMessageSchema,
};

describe('compiled validators', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name}: accepts and refuses what zod does, with the same data`, () => {
      const { check } = compileWithReport(schema);
      let accepted = 0;
      let refused = 0;
      fc.assert(
        fc.property(payloads(schema), fc.boolean(), (generated, throughJson) => {
          // Payloads arrive as JSON text; the raw value is checked too (undefined, -0, sparse keys).
          const input = throughJson && generated !== undefined ? JSON.parse(JSON.stringify(generated)) : generated;
          const expected = schema.safeParse(input);
          const actual = check(input);
          if (expected.success) accepted++;
          else refused++;
          expect(actual !== INVALID).toBe(expected.success);
          if (expected.success) expect(actual).toStrictEqual(expected.data);
        }),
        { numRuns: 3000, seed: 22 },
      );
      // Both sides of the contract were exercised, each many times.
      expect(accepted).toBeGreaterThan(300);
      expect(refused).toBeGreaterThan(300);
    });
  }

  it('compiles the hot payloads without handing any part to zod', () => {
    for (const schema of [PropMessageSchema, HeartbeatMessageSchema, StatusMessageSchema, SdkMessageSchema]) {
      expect(compileWithReport(schema).zodNodes).toEqual([]);
    }
    // What it does not know, zod checks: the ISO time of a log line, the announce's 'true'/'false'.
    expect(compileWithReport(LogMessageSchema).zodNodes).toEqual(['string']);
    expect(compileWithReport(AnnounceMessageSchema).zodNodes).toEqual(['pipe']);
  });

  it('gives zod’s issue for a refused payload and a fresh copy of each default', () => {
    const parser = compileSchema(z.object({ name: z.string().max(3), tags: z.array(z.string()).default([]) }));
    const refused = parser.safeParse({ name: 'abcd' });
    expect(refused.success).toBe(false);
    expect(refused.success ? null : refused.error.issues[0]?.path).toEqual(['name']);
    const first = parser.safeParse({ name: 'a' });
    const second = parser.safeParse({ name: 'b' });
    expect(first).toEqual({ success: true, data: { name: 'a', tags: [] } });
    expect(first.success && second.success && first.data.tags !== second.data.tags).toBe(true);
  });
});
