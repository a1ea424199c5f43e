/**
 * Loaded with `node --import` before a Gumband exhibit in the tests: the SDK's service ports are
 * fixed (3000, 3002, ...), so the tests, whose Plinth listens on free ports
 * (GUMBAND_COMPAT_BASE_PORT), move the SDK's table by the same offset. The exhibit's own code is
 * untouched; a real installation runs Plinth with the default base port 3000 and needs none of this.
 */
import endpoints from '@deeplocal/gumband-node-sdk/lib/endpointManager.js';

const base = Number(process.env.GB_TEST_BASE_PORT);
if (base) {
  for (const [service, port] of Object.entries(endpoints.servicePorts)) endpoints.servicePorts[service] = base + (port - 3000);
}
