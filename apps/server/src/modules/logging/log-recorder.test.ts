import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import type { LogRecord } from './ports.js';

/** The recorder's listener seam (what notifications hang on). */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('logs.onRecord', () => {
  it('hands each line to every listener with its time and storable text, survives a failing listener, and stops when told', () => {
    const seen: (LogRecord & { at: Date })[] = [];
    const stopFailing = server.deps.logs.onRecord(() => {
      throw new Error('a listener bug');
    });
    const stop = server.deps.logs.onRecord((line) => seen.push(line));
    const before = Date.now();
    const line: LogRecord = { source: 'exhibit', deviceId: '00000000-0000-4000-8000-000000000001', level: 'info', eventType: 'opMode', message: 'nul\u0000here' };
    expect(() => server.deps.logs.record(line)).not.toThrow();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ source: 'exhibit', eventType: 'opMode', level: 'info' });
    expect(seen[0]!.message).not.toContain('\u0000');
    expect(seen[0]!.at.getTime()).toBeGreaterThanOrEqual(before - 1);
    stop();
    stopFailing();
    server.deps.logs.record(line);
    expect(seen).toHaveLength(1);
  });
});
