import { randomUUID } from 'node:crypto';
import { hardwareTopic, MQTT_TOPIC_ROOT } from '@plinth/shared';
import type { MqttLink } from './mqtt-link.js';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
/**
 * Role the operator gives the Plinth server's own MQTT user (see docs/protocols/hardware-mqtt.md):
 * publish to plinth/hw/#, receive and subscribe to plinth/hw/#. Plinth does not grant it itself,
 * because changing a connected client's roles makes Mosquitto drop that client.
 */
export const SERVER_ROLE = 'plinth-server';

type DynsecCommand = Record<string, unknown> & { command: string };
type DynsecResponse = { command: string; error?: string; correlationData?: string };

/**
 * Provisions board credentials into Mosquitto's dynamic-security plugin, so that an external
 * broker enforces the same rules as the embedded one: username = hardware id, password = the
 * board's token, publish and subscribe only under plinth/hw/<id>/. The server's MQTT user must
 * be a dynamic-security admin (mosquitto_ctrl dynsec init creates one).
 */
export type DynsecProvisioner = {
  /** Creates the board's client (or replaces its password) with its own role; kicks a live session. */
  provisionBoard: (hardwareId: string, token: string) => Promise<void>;
  /** Disables the board's client (its live session is dropped by Mosquitto). */
  revokeBoard: (hardwareId: string) => Promise<void>;
  /** Removes the board's client and role. */
  deleteBoard: (hardwareId: string) => Promise<void>;
};

/**
 * How long a dynamic-security request may wait for Mosquitto's answer. Mosquitto rewrites its
 * whole dynamic-security file after each change, so with a thousand boards provisioned and a busy
 * machine one request can wait several seconds behind the ones before it (a fault test creating
 * 1,000 tokens, 20 at a time, saw 5 s pass).
 */
export const DYNSEC_TIMEOUT_MS = 15_000;

export async function createDynsecProvisioner(link: MqttLink, timeoutMs = DYNSEC_TIMEOUT_MS): Promise<DynsecProvisioner> {
  const waiting = new Map<string, (responses: DynsecResponse[]) => void>();
  await link.subscribe(RESPONSE_TOPIC, (_topic, payload) => {
    try {
      const body = JSON.parse(payload.toString('utf8')) as { responses?: DynsecResponse[] };
      const responses = body.responses ?? [];
      const id = responses.find((r) => r.correlationData)?.correlationData;
      if (id) waiting.get(id)?.(responses);
    } catch {
      // not ours
    }
  });

  /** Sends commands; answers the error of each (undefined when it succeeded). */
  const send = async (commands: DynsecCommand[]): Promise<(string | undefined)[]> => {
    const id = randomUUID();
    const result = new Promise<DynsecResponse[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('The MQTT broker did not answer the dynamic-security request'));
      }, timeoutMs);
      waiting.set(id, (responses) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(responses);
      });
    });
    await link.publish(CONTROL_TOPIC, JSON.stringify({ commands: commands.map((c) => ({ ...c, correlationData: id })) }), 1);
    const responses = await result;
    return commands.map((_, i) => responses[i]?.error);
  };
  const roleOf = (hardwareId: string) => `plinth-hw-${hardwareId}`;
  const mustSucceed = (errors: (string | undefined)[], tolerated: string[] = []) => {
    const bad = errors.find((e) => e && !tolerated.some((t) => e.includes(t)));
    if (bad) throw new Error(`Mosquitto dynamic security: ${bad}`);
  };

  return {
    provisionBoard: async (hardwareId, token) => {
      const role = roleOf(hardwareId);
      const prefix = `${MQTT_TOPIC_ROOT}/${hardwareId}`;
      const created = await send([
        { command: 'createRole', rolename: role },
        { command: 'addRoleACL', rolename: role, acltype: 'publishClientSend', topic: `${prefix}/+`, allow: true },
        { command: 'addRoleACL', rolename: role, acltype: 'publishClientSend', topic: hardwareTopic(hardwareId, 'cmd'), allow: false, priority: 10 },
        { command: 'addRoleACL', rolename: role, acltype: 'subscribeLiteral', topic: hardwareTopic(hardwareId, 'cmd'), allow: true },
        { command: 'addRoleACL', rolename: role, acltype: 'publishClientReceive', topic: `${prefix}/#`, allow: true },
        { command: 'addRoleACL', rolename: role, acltype: 'publishClientReceive', topic: '#', allow: false, priority: -10 },
        { command: 'createClient', username: hardwareId, password: token, roles: [{ rolename: role }] },
      ]);
      mustSucceed(created.slice(0, 6), ['already exists']);
      if (created[6]) {
        if (!created[6].includes('already exists')) throw new Error(`Mosquitto dynamic security: ${created[6]}`);
        mustSucceed(
          await send([
            { command: 'setClientPassword', username: hardwareId, password: token },
            { command: 'enableClient', username: hardwareId },
            { command: 'addClientRole', username: hardwareId, rolename: role },
          ]),
          ['already'],
        );
      }
    },
    revokeBoard: async (hardwareId) => {
      mustSucceed(await send([{ command: 'disableClient', username: hardwareId }]), ['not found']);
    },
    deleteBoard: async (hardwareId) => {
      mustSucceed(
        await send([
          { command: 'deleteClient', username: hardwareId },
          { command: 'deleteRole', rolename: roleOf(hardwareId) },
        ]),
        ['not found'],
      );
    },
  };
}
