import type { AppDeps } from '../../deps.js';
import { startMailSender } from './mail-sender.js';
import { startNotificationTriggers } from './notification-triggers.js';
import type { Notifications } from './ports.js';

/** Starts this node's notification triggers and outbox sender (startServer, after the gateways). */
export function startNotifications(deps: AppDeps): Notifications {
  const triggers = startNotificationTriggers(deps);
  const sender = startMailSender(deps);
  return {
    sender,
    stopSending: () => sender.stop(),
    stop: async () => {
      await sender.stop();
      await triggers.stop();
    },
  };
}
