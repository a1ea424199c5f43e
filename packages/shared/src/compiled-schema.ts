import type { z } from 'zod';

/**
 * Compiled validators for the hot payloads (a board's prop change, an exhibit's status), generated
 * from the zod contracts, which stay the source of truth. `compileSchema` walks the schema once
 * and writes one plain JavaScript function per node (type checks, lengths, bounds, defaults, the
 * object's known keys copied in order), so a valid payload costs a few comparisons instead of
 * zod's per-call bookkeeping. What the compiler does not know (formats, transforms, refinements,
 * catch-alls, ...) is handed to that node's own zod schema at that point, so a schema is never
 * checked more loosely than zod checks it. A refused payload is parsed again by zod, for its
 * issue. compiled-schema.test.ts proves both accept and refuse the same generated payloads and
 * give the same data. Node only: it builds functions with `new Function` (not for the console,
 * whose content security policy forbids that).
 */

/** Parses like zod's `safeParse`: same success data, zod's own error on failure. */
export type SchemaParser<T> = {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: z.ZodError };
};

/** The compiled check alone: the parsed value, or `INVALID`. */
export const INVALID: unique symbol = Symbol('invalid');
export type CompiledCheck<T> = (input: unknown) => T | typeof INVALID;

/** The schema's parser: the compiled check first, zod for the reason when it refuses. */
export function compileSchema<S extends z.ZodType>(schema: S): SchemaParser<z.output<S>> & { check: CompiledCheck<z.output<S>> } {
  const { check } = compileWithReport(schema);
  return {
    check,
    safeParse(input) {
      const data = check(input);
      if (data !== INVALID) return { success: true, data };
      const parsed = schema.safeParse(input);
      // A disagreement would be a compiler defect; zod's answer stands (and the test suite fails).
      return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error };
    },
  };
}

type Internals = {
  def: Record<string, unknown> & { type: string; checks?: { _zod: { def: Record<string, unknown> & { check: string } } }[] };
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
};
const internals = (schema: unknown): Internals => (schema as { _zod: Internals })._zod;

/**
 * The check, and the zod types of the nodes it hands to zod (for tests and profiles: a hot
 * schema should have none).
 */
export function compileWithReport<S extends z.ZodType>(schema: S): { check: CompiledCheck<z.output<S>>; zodNodes: string[] } {
  const compiler = new Compiler();
  const root = compiler.compile(schema);
  const source = `${compiler.functions.join('\n')}\nreturn ${root};`;
  const check = new Function('F', 'k', source)(INVALID, compiler.constants) as CompiledCheck<z.output<S>>;
  return { check, zodNodes: compiler.zodNodes };
}

/** Writes one function per schema node (`f0`, `f1`, ...), its constants shared in `k`. */
class Compiler {
  readonly functions: string[] = [];
  readonly constants: unknown[] = [];
  readonly zodNodes: string[] = [];
  private readonly names = new Map<unknown, string>();

  /** The name of the generated function checking `node`, writing it on first use. */
  compile(node: unknown): string {
    const known = this.names.get(node);
    if (known) return known;
    const name = `f${this.names.size}`;
    this.names.set(node, name);
    const body = this.nodeBody(node) ?? this.fallback(node);
    this.functions.push(`function ${name}(x) {\n${body}\n}`);
    return name;
  }

  private constant(value: unknown): string {
    return `k[${this.constants.push(value) - 1}]`;
  }

  /** Zod itself checks what the compiler does not know. */
  private fallback(node: unknown): string {
    this.zodNodes.push(internals(node).def.type);
    return `const r = ${this.constant(node)}.safeParse(x);\nreturn r.success ? r.data : F;`;
  }

  private nodeBody(node: unknown): string | null {
    const { def, values } = internals(node);
    if (def.coerce) return null;
    const checks = checkLines(def.checks ?? []);
    if (checks === null) return null;
    switch (def.type) {
      case 'string':
        if (def.format !== undefined || def.pattern !== undefined) return null;
        return `if (typeof x !== 'string') return F;\n${checks}return x;`;
      case 'number':
        if (def.format !== undefined) return null;
        return `if (typeof x !== 'number' || !Number.isFinite(x)) return F;\n${checks}return x;`;
      case 'boolean':
        return `if (typeof x !== 'boolean') return F;\n${checks}return x;`;
      case 'null':
        return `if (x !== null) return F;\n${checks}return x;`;
      case 'unknown':
      case 'any':
        return checks ? null : 'return x;';
      case 'literal':
      case 'enum':
        return !values || checks ? null : `if (!${this.constant(values)}.has(x)) return F;\nreturn x;`;
      case 'array':
        return this.arrayBody(def.element, checks);
      case 'object':
        return def.catchall === undefined ? this.objectBody(def.shape as Record<string, unknown>, checks) : null;
      default:
        return checks ? null : this.wrapperBody(def);
    }
  }

  /** optional, nullable, default and the unions (no checks of their own). */
  private wrapperBody(def: Internals['def']): string | null {
    switch (def.type) {
      case 'optional':
        return `if (x === undefined) return x;\nreturn ${this.compile(def.innerType)}(x);`;
      case 'nullable':
        return `if (x === null) return x;\nreturn ${this.compile(def.innerType)}(x);`;
      case 'default': {
        // The default's getter gives a fresh copy each time, as zod does.
        const holder = this.constant(def);
        return `if (x === undefined) return ${holder}.defaultValue;\nconst v = ${this.compile(def.innerType)}(x);\nif (v === F) return F;\nreturn v === undefined ? ${holder}.defaultValue : v;`;
      }
      case 'union': {
        if (typeof def.discriminator === 'string') return this.discriminatedBody(def.discriminator, def.options as unknown[], def.unionFallback === true);
        // Exclusive unions (z.xor) refuse a value two options accept: zod checks them.
        if (def.inclusive === false) return null;
        const options = (def.options as unknown[]).map((option) => this.compile(option));
        return `let v;\n${options.map((option) => `if ((v = ${option}(x)) !== F) return v;`).join('\n')}\nreturn F;`;
      }
      default:
        return null;
    }
  }

  private arrayBody(element: unknown, checks: string): string {
    const check = this.compile(element);
    return `if (!Array.isArray(x)) return F;\n${checks}const out = new Array(x.length);\nfor (let i = 0; i < x.length; i++) {\nconst v = ${check}(x[i]);\nif (v === F) return F;\nout[i] = v;\n}\nreturn out;`;
  }

  /** The option named by the discriminator's value, as zod picks it (no trying the others). */
  private discriminatedBody(discriminator: string, options: unknown[], unionFallback: boolean): string | null {
    if (unionFallback) return null;
    const cases: string[] = [];
    for (const option of options) {
      const values = (option as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues?.[discriminator];
      if (!values) return null;
      for (const value of values) {
        if (value === undefined || (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && value !== null)) return null;
        cases.push(`case ${JSON.stringify(value)}: return ${this.compile(option)}(x);`);
      }
    }
    const k = JSON.stringify(discriminator);
    return `if (typeof x !== 'object' || x === null || Array.isArray(x)) return F;\nswitch (x[${k}]) {\n${cases.join('\n')}\ndefault: return F;\n}`;
  }

  /** The object's known keys, with zod's rules for absent keys (core/schemas handlePropertyResult). */
  private objectBody(shape: Record<string, unknown>, checks: string): string {
    const lines = ["if (typeof x !== 'object' || x === null || Array.isArray(x)) return F;", 'const out = {};', 'let v, present;'];
    for (const [key, field] of Object.entries(shape)) {
      const { optin, optout } = internals(field);
      const k = JSON.stringify(key);
      lines.push(`present = ${k} in x;`);
      const skipAbsent = optout === 'optional' && optin === 'optional';
      const absentErrorIgnored = optin !== undefined && optout === 'optional';
      lines.push(`v = ${skipAbsent ? `!present ? undefined : ` : ''}${this.compile(field)}(x[${k}]);`);
      lines.push(`if (v === F) { ${absentErrorIgnored ? 'if (present) return F;' : 'return F;'} }`);
      if (optin === undefined) lines.push('else if (!present) return F;');
      const keepUndefined = optin === 'defaulted' && optout !== 'optional' ? 'true' : 'present';
      lines.push(`else if (v !== undefined || ${keepUndefined}) out[${k}] = v;`);
    }
    lines.push(`${checks}return out;`);
    return lines.join('\n');
  }
}

/**
 * The lines of a node's checks the compiler knows (sizes, bounds, whole numbers), each returning
 * F when it fails; null when one is unknown, and zod checks the whole node.
 */
function checkLines(checks: NonNullable<Internals['def']['checks']>): string | null {
  const lines: string[] = [];
  for (const check of checks) {
    const def = check._zod.def;
    const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : null);
    switch (def.check) {
      case 'min_length': {
        const n = number(def.minimum);
        if (n === null) return null;
        lines.push(`if (x.length < ${n}) return F;`);
        break;
      }
      case 'max_length': {
        const n = number(def.maximum);
        if (n === null) return null;
        lines.push(`if (x.length > ${n}) return F;`);
        break;
      }
      case 'length_equals': {
        const n = number(def.length);
        if (n === null) return null;
        lines.push(`if (x.length !== ${n}) return F;`);
        break;
      }
      case 'greater_than': {
        const n = number(def.value);
        if (n === null) return null;
        lines.push(`if (!(x ${def.inclusive ? '>=' : '>'} ${n})) return F;`);
        break;
      }
      case 'less_than': {
        const n = number(def.value);
        if (n === null) return null;
        lines.push(`if (!(x ${def.inclusive ? '<=' : '<'} ${n})) return F;`);
        break;
      }
      case 'number_format':
        if (def.format === 'safeint') lines.push('if (!Number.isSafeInteger(x)) return F;');
        else if (def.format === 'int32') lines.push('if (!Number.isInteger(x) || x < -2147483648 || x > 2147483647) return F;');
        else return null;
        break;
      default:
        return null;
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
