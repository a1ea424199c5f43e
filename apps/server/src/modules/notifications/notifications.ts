import type { AppDeps } from '../../deps.js';
import { startMailSender } from './mail-sender.js';
import { countDueMails } from './mail-outbox.repository.js';
import { startNotificationTriggers } from './notification-triggers.js';
import type { Notifications } from './ports.js';

/** Starts this node's notification triggers and outbox sender (startServer, after the gateways). */
export function startNotifications(deps: AppDeps): Notifications {
  const triggers = startNotificationTriggers(deps);
  const sender = startMailSender(deps);
  deps.metrics.setSource('mailOutboxDue', () => countDueMails(deps.db, deps.clock.now()));
  return {
    sender,
    stopSending: () => sender.stop(),
    stop: async () => {
      await sender.stop();
      await triggers.stop();
    },
  };
}
