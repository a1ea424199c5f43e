import { expect } from 'vitest';
import { hardwareTopic } from '@plinth/shared';
import type { Exhibit } from '@plinth/sdk';
import type { SimulatedBoard } from '@plinth/hardware-sim';
import { waitUntil } from './hardware-kit.js';
import type { TestClient } from './test-client.js';

/**
 * The fault suite's steady load (issue 13, docs/reliability.md): people saving settings through
 * the API, exhibits sending status changes, boards publishing prop changes at QoS 1, all the
 * time, through whatever fault the scenario causes. It remembers the last write each source had
 * acknowledged (a 200 answer, a PUBACK), so that a scenario can check none was lost.
 */
export type SteadyLoadInput = {
  /** Saves `settingId` (a TextInput) of each exhibit again and again: `v1`, `v2`, … */
  settings?: { writer: TestClient; exhibitIds: string[]; settingId: string };
  /** Sets status `statusId` (an Integer) of each exhibit again and again (not acknowledged by the protocol: load only). */
  statuses?: { exhibits: Exhibit[]; statusId: string };
  /** Publishes prop `text1.text` of each board: `p1`, `p2`, … */
  boards?: SimulatedBoard[];
  /** Pause between a source's writes, in ms (default 20). */
  pauseMs?: number;
};

/** Reads rows from the server's database (a PostgreSQL client, or the server's own connection). */
export type RowsQuery = <T>(sql: string, values?: unknown[]) => Promise<T[]>;

export type SteadyLoad = {
  /** The last value number each exhibit's save was answered 200 for. */
  settings: Map<string, number>;
  /** The last value number each board's PUBACK came back for. */
  props: Map<string, number>;
  /** When each prop change was acknowledged (ms), to count those acknowledged during a fault. */
  propAckTimes: number[];
  /** Answers to the saves by HTTP status (0: no answer). */
  answers: Map<number, number>;
  /** The slowest answer to a save, in ms. */
  slowestMs: number;
  statusesSent: number;
  /** Resolves once every source had a write acknowledged. */
  running: () => Promise<void>;
  stop: () => Promise<void>;
  /**
   * Asserts that every acknowledged save is stored, and every PUBACKed prop change unless `props`
   * is false (a process killed with SIGKILL takes its batch of the last 100 ms with it); batched
   * writes get `withinMs` (default 10 s) to land.
   */
  expectNothingLost: (query: RowsQuery, options?: { withinMs?: number; props?: boolean }) => Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startSteadyLoad(input: SteadyLoadInput): SteadyLoad {
  const pauseMs = input.pauseMs ?? 20;
  let loaded = true;
  const load: SteadyLoad = {
    settings: new Map(),
    props: new Map(),
    propAckTimes: [],
    answers: new Map(),
    slowestMs: 0,
    statusesSent: 0,
    running: async () => {
      await waitUntil(
        () => load.settings.size === (input.settings?.exhibitIds.length ?? 0) && load.props.size === (input.boards?.length ?? 0),
        'every source of the steady load acknowledged',
        30_000,
      );
    },
    stop: async () => {
      loaded = false;
      await Promise.all(loops);
    },
    expectNothingLost: async (query, options = {}) => {
      for (const [exhibitId, n] of load.settings) {
        const rows = await query<{ value: unknown }>(
          `select value from exhibit_settings where exhibit_id = $1 and manifest_id = $2 and list_manifest_id = ''`,
          [exhibitId, input.settings!.settingId],
        );
        expect(Number(String(rows[0]?.value).replace(/^"?v/, '').replace(/"$/, '')), `exhibit ${exhibitId}'s last acknowledged save`).toBeGreaterThanOrEqual(n);
      }
      const storedProp = async (hardwareId: string) => {
        const rows = await query<{ peripherals: { id: string; props: { name: string; value: unknown }[] }[] }>('select peripherals from hardware where id = $1', [hardwareId]);
        return Number(String(rows[0]?.peripherals.find((p) => p.id === 'text1')?.props.find((p) => p.name === 'text')?.value).slice(1));
      };
      if (options.props === false) return;
      let behind: string[] = [];
      await waitUntil(
        async () => {
          behind = [];
          for (const [hardwareId, n] of load.props) if ((await storedProp(hardwareId)) < n) behind.push(hardwareId);
          return behind.length === 0;
        },
        'every PUBACKed prop change stored',
        options.withinMs ?? 10_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${behind.length} boards' last acknowledged change missing`);
      });
    },
  };

  const saves = (input.settings?.exhibitIds ?? []).map(async (exhibitId) => {
    const { writer, settingId } = input.settings!;
    for (let n = 1; loaded; n += 1) {
      const startedAt = Date.now();
      const res = await writer.post(`/exhibit-management/exhibit/${exhibitId}/setting/${settingId}`, { value: `v${n}` }).catch(() => null);
      load.slowestMs = Math.max(load.slowestMs, Date.now() - startedAt);
      const status = res?.status ?? 0;
      load.answers.set(status, (load.answers.get(status) ?? 0) + 1);
      if (status === 200) load.settings.set(exhibitId, n);
      await sleep(status === 200 ? pauseMs : 100);
    }
  });
  const statuses = (input.statuses?.exhibits ?? []).map(async (exhibit) => {
    for (let n = 1; loaded; n += 1) {
      exhibit.setStatus(input.statuses!.statusId, n);
      load.statusesSent += 1;
      await sleep(pauseMs);
    }
  });
  const props = (input.boards ?? []).map(async (board) => {
    for (let n = 1; loaded; n += 1) {
      const client = board.mqttClient;
      // The board's own state follows what it publishes, as a real board's does: its announce (on
      // every connection, and when the server asks with `get`) carries the value it last set.
      const prop = board.findProp('text1', 'text');
      if (prop) prop.value = `p${n}`;
      // A publish the connection lost may never settle: it counts as not acknowledged.
      const acked =
        client?.connected &&
        (await Promise.race([
          client
            .publishAsync(hardwareTopic(board.hardwareId, 'prop'), JSON.stringify({ peripheralId: 'text1', propName: 'text', value: `p${n}` }), { qos: 1 })
            .then(
              () => true,
              () => false,
            ),
          sleep(3000).then(() => false),
        ]));
      if (acked) {
        load.props.set(board.hardwareId, n);
        load.propAckTimes.push(Date.now());
      }
      await sleep(acked ? pauseMs : 100);
    }
  });
  const loops = [...saves, ...statuses, ...props];
  return load;
}
