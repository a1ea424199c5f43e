import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Readiness } from '@plinth/shared';
import { freePort } from '../../test/free-port.js';
import { startServerProcess, type ServerProcess } from '../../test/server-process.js';

type Seen = { status: number; body: Readiness | null };

/** Asks /readyz every 25 ms until stopped, keeping every distinct answer in order. */
function watchReadiness(port: number) {
  const seen: Seen[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const answer = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then(async (res) => ({ status: res.status, body: (await res.json()) as Readiness }))
        .catch(() => ({ status: 0, body: null }));
      const last = seen.at(-1);
      if (!last || last.status !== answer.status || last.body?.status !== answer.body?.status) seen.push(answer);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

describe('a node started as `npm start` would', () => {
  let child: ServerProcess | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-readyz-'));
  afterAll(async () => {
    await child?.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /readyz 503 starting, then 200, then 503 stopping from the moment SIGTERM arrives until it exits', async () => {
    const port = await freePort();
    const watch = watchReadiness(port);
    // PGlite in a new folder: its first open takes seconds, a start long enough to be seen.
    child = await startServerProcess({ DATA_DIR: dataDir, PORT: String(port), SHUTDOWN_DRAIN_MS: '3000', LOG_LEVEL: 'info' });
    await expect.poll(() => watch.seen.at(-1)?.status, { timeout: 5000 }).toBe(200);
    const exited = new Promise<number | null>((resolve) => child!.child.once('exit', (code) => resolve(code)));
    const signalledAt = Date.now();
    child.child.kill('SIGTERM');
    // At once (the signal is handled within a turn of the child's event loop), long before it closes.
    await expect
      .poll(async () => {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        return `${res.status} ${((await res.json()) as Readiness).status}`;
      }, { timeout: 2000, interval: 10 })
      .toBe('503 stopping');
    // The node still serves while it drains.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(await exited).toBe(0);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(2900);
    await watch.stop();
    const statuses = watch.seen.map((s) => `${s.status} ${s.body?.status ?? 'refused'}`).filter((s) => s !== '0 refused');
    expect(statuses).toEqual(['503 starting', '200 ready', '503 stopping']);
    expect(watch.seen.find((s) => s.body?.status === 'starting')?.body).toEqual({ status: 'starting', failing: [], checks: {} });
  });

  it('writes JSON lines when its output is not a terminal', () => {
    const lines = child!.output().split('\n').filter((line) => line.startsWith('{'));
    const ready = lines.map((line) => JSON.parse(line) as { msg?: string }).find((entry) => entry.msg?.includes('Plinth is ready at'));
    expect(ready).toBeDefined();
    // The first-start banner is in there too, as a JSON string (a log collector's business).
    expect(lines.some((line) => line.includes('one-time link'))).toBe(true);
  });
});
