import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { freePort } from '../../test/free-port.js';
import { createHardwareRow, createToken, newBoard, waitUntil, waitUntilAnnounced } from '../../test/hardware-kit.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';

/** Debian's Prometheus (`apt-get install prometheus`; scripts/test.mjs installs it for `npm test`). */
const PROMETHEUS = '/usr/bin/prometheus';
const BOARDS = 3;

type QueryAnswer = { status: string; data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] } };

/** Prometheus with a generated configuration that scrapes `target` every second, on a free port, with a throwaway data folder. */
async function startPrometheus(target: string): Promise<{ url: string; stop: () => Promise<void>; log: () => string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plinth-prometheus-'));
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    '  - job_name: plinth',
    '    static_configs:',
    `      - targets: ['${target}']`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The value of an instant query's single series, or null while Prometheus has none. */
async function queryOne(prometheusUrl: string, query: string): Promise<number | null> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`).catch(() => null);
  if (!res?.ok) return null;
  const answer = (await res.json()) as QueryAnswer;
  const series = answer.data.result;
  return series.length === 1 ? Number(series[0]!.value[1]) : null;
}

describe('a real Prometheus scraping a running Plinth', () => {
  let server: TestServer;
  let prometheus: Awaited<ReturnType<typeof startPrometheus>>;
  const boards: SimulatedBoard[] = [];

  beforeAll(async () => {
    server = await startTestServer({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' });
    const { client } = await server.signUp({ isPlatformAdmin: true });
    for (let i = 0; i < BOARDS; i++) {
      const { hardwareId } = await createHardwareRow(server, `Board ${i}`);
      const { token } = await createToken(client, hardwareId);
      const board = newBoard({ url: `mqtt://127.0.0.1:${server.mqttPort}`, hardwareId, token });
      boards.push(board);
      await board.start();
      await waitUntilAnnounced(server, hardwareId);
    }
    prometheus = await startPrometheus(`127.0.0.1:${server.metricsPort}`);
  }, 60_000);
  afterAll(async () => {
    for (const board of boards) await board.stop();
    await prometheus?.stop();
    await server?.stop();
  });

  it('scrapes the metrics port: up is 1, and the online-board count is the boards connected, then one fewer', async () => {
    const up = await waitUntil(() => queryOne(prometheus.url, 'up{job="plinth"}'), `Prometheus to scrape Plinth (up = 1)\n${prometheus.log()}`, 30_000);
    expect(up).toBe(1);
    await expect.poll(() => queryOne(prometheus.url, 'plinth_boards_online'), { timeout: 15_000, interval: 250 }).toBe(BOARDS);
    // Messages in are counted per channel: every board said status, announced and heartbeats.
    expect(await waitUntil(() => queryOne(prometheus.url, 'plinth_board_messages_total{channel="announce"}'), 'the announce count')).toBeGreaterThanOrEqual(BOARDS);
    await boards.pop()!.stop();
    await expect.poll(() => queryOne(prometheus.url, 'plinth_boards_online'), { timeout: 15_000, interval: 250 }).toBe(BOARDS - 1);
  });

  it('keeps the series the same however many boards there are (no per-device label)', async () => {
    const res = await fetch(`${prometheus.url}/api/v1/series?match[]=${encodeURIComponent('{job="plinth",__name__=~"plinth_.*"}')}`);
    const series = ((await res.json()) as { data: Record<string, string>[] }).data;
    expect(series.length).toBeGreaterThan(0);
    const labelNames = new Set(series.flatMap((labels) => Object.keys(labels)));
    expect([...labelNames].sort()).toEqual(expect.arrayContaining(['__name__', 'instance', 'job']));
    const allowed = new Set(['__name__', 'instance', 'job', 'channel', 'type', 'reason', 'method', 'route', 'status_code', 'le']);
    expect([...labelNames].filter((name) => !allowed.has(name))).toEqual([]);
    for (const labels of series) for (const value of Object.values(labels)) expect(value).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  });
});
