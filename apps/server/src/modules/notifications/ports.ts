/** What one pass of the mail sender did. */
export type MailSenderRun = { sent: number; dropped: number; failed: number };

/** A node's mail outbox sender (mail-sender.ts), as the rest of the server sees it. */
export type MailSender = {
  /** This node's name in leases. */
  node: string;
  /** Sends what is due now (the poll does the same); resolves with what it did. */
  runNow: () => Promise<MailSenderRun>;
  stop: () => Promise<void>;
};

/** This node's notifications: the triggers listening to the log recorder and the outbox sender. */
export type Notifications = {
  sender: MailSender;
  /** Stops the sender (the server is stopping): early, before the gateways close. */
  stopSending: () => Promise<void>;
  /** Stops listening and waits for the mails being queued: after the gateways' last records. */
  stop: () => Promise<void>;
};
