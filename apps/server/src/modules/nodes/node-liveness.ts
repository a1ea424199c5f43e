import type { AppDeps } from '../../deps.js';
import { beat, claimLostNodes, registerNode, unregisterNode } from './node-liveness.repository.js';

export type NodeLiveness = { stop: () => Promise<void> };

/**
 * This node among the nodes on one database (docs/architecture.md, "Nodes"): it beats every
 * NODE_HEARTBEAT_MS, and at each beat looks for nodes silent for NODE_LOST_AFTER_MS. The first
 * survivor to claim a dead node marks the exhibits it held offline ('node_lost'), unless they
 * reconnected elsewhere; so no exhibit reads online for longer than about the two together after
 * its node died. Boards need nothing of the kind: with several nodes they share one broker, and
 * each node's silence watchdog sees them (docs/protocols/hardware-mqtt.md).
 */
export async function startNodeLiveness(deps: AppDeps): Promise<NodeLiveness> {
  const { db, nodeId, logger, config } = deps;
  await registerNode(db, nodeId);
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const tick = async () => {
    if (!(await beat(db, nodeId))) {
      // Taken for dead (a long pause, the database away): back in, and its exhibits online again.
      await registerNode(db, nodeId);
      const again = await deps.exhibitGateway.reassertOnline();
      logger.warn(`This node was taken for lost by another node; marked its ${again} exhibit connection(s) online again`);
    }
    for (const lost of await claimLostNodes(db, config.NODE_LOST_AFTER_MS)) {
      const released = await deps.exhibitGateway.releaseLostNode(lost);
      logger.warn(`Server node ${lost} stopped answering: marked the ${released} exhibit(s) it held offline`);
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(tick).catch((error: unknown) => logger.warn({ err: error }, 'The node heartbeat failed; trying again at the next one'));
  }, config.NODE_HEARTBEAT_MS);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await unregisterNode(db, nodeId).catch((error: unknown) => logger.warn({ err: error }, 'could not remove this node from server_nodes'));
    },
  };
}
