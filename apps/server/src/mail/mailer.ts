import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export type Mail = { to: string; subject: string; text: string; replyTo?: string };

/** Outgoing mail behind a seam: SMTP when SMTP_URL is set, else written to the log. */
export type Mailer = { send: (mail: Mail) => Promise<void>; close: () => void };

export function createMailer(options: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      send: async (mail) => {
        options.logger.info({ mail: { to: mail.to, subject: mail.subject } }, `Mail (no SMTP_URL set):\n${mail.text}`);
      },
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    send: async (mail) => {
      await transport.sendMail({ from: options.from, ...mail });
    },
    close: () => transport.close(),
  };
}
