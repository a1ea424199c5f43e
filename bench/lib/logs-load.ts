// A load-generator process for the logs benchmark (bench/logs.bench.ts): exhibits through
// @plinth/sdk and boards as plain MQTT clients, all logging at a steady rate, plus a few probe
// exhibits and boards whose status and prop values carry the send time so that the parent's
// console socket can measure the live latency while the log ingest runs. Driven over the fork
// IPC channel.
import mqtt from 'mqtt';
import { Exhibit } from '@plinth/sdk';
import { defaultPeripherals } from '@plinth/hardware-sim';
import { hardwareTopic, type ManifestInput } from '@plinth/shared';

export type LoadDevice = { id: string; token: string };

export type ToLogsLoad =
  | {
      type: 'connect';
      serverUrl: string;
      mqttUrl: string;
      exhibits: LoadDevice[];
      boards: LoadDevice[];
      manifest: ManifestInput;
    }
  /** Log `linesPerSecond` in all (half from exhibits, half from boards) for `durationMs`; probes send every `probeMs`. */
  | { type: 'run'; linesPerSecond: number; durationMs: number; probeExhibits: number; probeBoards: number; probeMs: number; statusId: string }
  | { type: 'close' };

export type FromLogsLoad =
  | { type: 'connected'; exhibits: number; boards: number; errors: string[] }
  | { type: 'ran'; sdkLines: number; mqttLines: number; probeStatuses: number; probeProps: number }
  | { type: 'closed' };

const exhibits: Exhibit[] = [];
const boards: { id: string; client: mqtt.MqttClient }[] = [];
const errors = new Set<string>();

const report = (message: FromLogsLoad) => process.send?.(message);

async function connect(message: Extract<ToLogsLoad, { type: 'connect' }>): Promise<void> {
  for (const item of message.exhibits) {
    const exhibit = new Exhibit({ serverUrl: message.serverUrl, exhibitId: item.id, token: item.token, manifest: message.manifest, reconnectMinMs: 1000 });
    exhibit.on('error', (error) => errors.add(error.message));
    exhibits.push(exhibit);
  }
  const boardClients = await Promise.all(
    message.boards.map(async (item) => {
      const client = await mqtt.connectAsync(message.mqttUrl, { username: item.id, password: item.token, reconnectPeriod: 0, protocolVersion: 4 });
      client.on('error', (error) => errors.add(error.message));
      await client.publishAsync(hardwareTopic(item.id, 'status'), JSON.stringify({ online: true }), { qos: 1 });
      // A long heartbeat interval: these boards only log (and the probes change a prop).
      const announce = { plinth_fw: '46', user_fw: '1.0', ip: null, mac: null, heartbeatMs: 3_600_000, peripherals: defaultPeripherals() };
      await client.publishAsync(hardwareTopic(item.id, 'announce'), JSON.stringify(announce), { qos: 1 });
      return { id: item.id, client };
    }),
  );
  boards.push(...boardClients);
  const ready = await Promise.allSettled(exhibits.map((e) => e.ready()));
  for (const r of ready) if (r.status === 'rejected') errors.add((r.reason as Error).message);
  report({ type: 'connected', exhibits: ready.filter((r) => r.status === 'fulfilled').length, boards: boards.length, errors: [...errors].slice(0, 5) });
}

/**
 * Sends in ticks of 50 ms: each tick every logging exhibit and board gets its share of the lines
 * due by then (counted from the start, so a late timer catches up and the rate offered is the
 * rate asked for). An exhibit's lines of a tick go out as one SDK message (the SDK batches a
 * tick's logger lines); a board publishes one MQTT message per line, as a real board would.
 */
function run(message: Extract<ToLogsLoad, { type: 'run' }>): void {
  const tickMs = 50;
  const loggingExhibits = exhibits.slice(message.probeExhibits);
  const loggingBoards = boards.slice(message.probeBoards);
  let sdkLines = 0;
  let mqttLines = 0;
  let probeStatuses = 0;
  let probeProps = 0;
  let nextExhibit = 0;
  let nextBoard = 0;
  const startedAt = Date.now();
  const endAt = startedAt + message.durationMs;
  const sendDue = () => {
    // Half the lines from exhibits, half from boards.
    const duePerSide = Math.floor(((Math.min(Date.now(), endAt) - startedAt) * message.linesPerSecond) / 2000);
    for (; sdkLines < duePerSide && loggingExhibits.length; sdkLines += 1) {
      const exhibit = loggingExhibits[nextExhibit++ % loggingExhibits.length]!;
      exhibit.logger.info(`{"bench":"line","n":${sdkLines}}`);
    }
    for (; mqttLines < duePerSide && loggingBoards.length; mqttLines += 1) {
      const board = loggingBoards[nextBoard++ % loggingBoards.length]!;
      board.client.publish(hardwareTopic(board.id, 'log'), JSON.stringify({ level: 'info', message: `bench line ${mqttLines}` }), { qos: 0 });
    }
  };
  const tick = setInterval(sendDue, tickMs);
  // Each probe sends every probeMs, the probes spread over the interval in ten slots (as the
  // exhibits and hardware benchmarks spread their devices), not all in one burst.
  const slots = 10;
  let slot = 0;
  const probe = setInterval(() => {
    const sentAt = String(Date.now());
    for (let i = slot; i < message.probeExhibits; i += slots, probeStatuses += 1) exhibits[i]!.setStatus(message.statusId, sentAt);
    for (let i = slot; i < message.probeBoards; i += slots, probeProps += 1) {
      boards[i]!.client.publish(hardwareTopic(boards[i]!.id, 'prop'), JSON.stringify({ peripheralId: 'text1', propName: 'text', value: sentAt }), { qos: 1 });
    }
    slot = (slot + 1) % slots;
  }, message.probeMs / slots);
  const stop = setInterval(() => {
    if (Date.now() < endAt) return;
    sendDue();
    clearInterval(tick);
    clearInterval(probe);
    clearInterval(stop);
    report({ type: 'ran', sdkLines, mqttLines, probeStatuses, probeProps });
  }, 100);
}

process.on('message', (message: ToLogsLoad) => {
  switch (message.type) {
    case 'connect':
      connect(message).catch((error: Error) => report({ type: 'connected', exhibits: 0, boards: 0, errors: [error.message] }));
      return;
    case 'run':
      run(message);
      return;
    case 'close':
      for (const exhibit of exhibits) exhibit.close();
      for (const board of boards) board.client.end(true);
      report({ type: 'closed' });
      setTimeout(() => process.exit(0), 500);
      return;
  }
});
process.on('disconnect', () => process.exit(0));
