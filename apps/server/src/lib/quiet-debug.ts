import { createRequire } from 'node:module';

/** A function the `debug` package makes for one namespace (only what its callers here use). */
export type DebugFunction = ((...args: unknown[]) => void) & {
  readonly enabled: boolean;
  readonly namespace: string;
  extend: (namespace: string, delimiter?: string) => DebugFunction;
};

/** The `debug` package's export: makes a namespace's function, and holds the package's settings. */
export type CreateDebug = (namespace: string) => DebugFunction;

const QUIET = Symbol.for('plinth.quietDebug');

/**
 * A `debug` export whose namespaces that are off when made (DEBUG does not name them) answer a
 * function that does nothing; namespaces DEBUG turns on answer the package's own function.
 *
 * The package's function takes its arguments as a rest array and reads a getter before it sees
 * it is off. MQTT's packet parser calls it about twenty times a message, in the broker's hottest
 * path: 14% of every byte the server allocated at 2,000 boards × 1 message in flight, and 2% of
 * its main thread (docs/performance.md, "Debug calls that were off"). The price: a namespace off
 * at its making stays off, whatever `debug.enable()` says later (DEBUG is read at start anyway).
 */
export function quietDebug(createDebug: CreateDebug): CreateDebug {
  const quiet = (made: DebugFunction): DebugFunction => {
    if (made.enabled) return made;
    const nothing = () => undefined;
    return Object.assign(nothing, {
      enabled: false,
      namespace: made.namespace,
      extend: (namespace: string, delimiter?: string) => quiet(made.extend(namespace, delimiter)),
    });
  };
  // A proxy, so the package's settings (`enable`, `names`, `formatters`) stay the package's own.
  return new Proxy(createDebug, {
    apply: (target, self, args: [string]) => quiet(Reflect.apply(target, self, args) as DebugFunction),
    get: (target, key, receiver) => (key === QUIET ? true : Reflect.get(target, key, receiver)),
  });
}

/**
 * Puts `quietDebug` in place of the `debug` package for every module loaded after this call (one
 * copy of the package is installed, which aedes's packet parser and the MQTT client load). Call it
 * before anything that loads them; answers whether it was put in place now.
 */
export function installQuietDebug(): boolean {
  const require = createRequire(import.meta.url);
  const createDebug = require('debug') as CreateDebug;
  const loaded = require.cache[require.resolve('debug')];
  if (!loaded || (createDebug as unknown as Record<symbol, unknown>)[QUIET]) return false;
  loaded.exports = quietDebug(createDebug);
  return true;
}
