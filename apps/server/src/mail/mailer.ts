import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config.js';

export type Mail = {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
  /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on notification mails). */
  headers?: Record<string, string>;
};

/**
 * Outgoing mail behind a seam. `smtp` sends through SMTP_URL; `log` writes each mail, links
 * included, to the log (the embedded default, or MAIL_TRANSPORT=log); `disabled` sends nothing and
 * logs only that a mail was not sent, never its text: reset and invitation links are credentials.
 */
export type Mailer = { send: (mail: Mail) => Promise<void>; close: () => void };

export function createMailer(options: {
  transport: Config['mailTransport'];
  smtpUrl?: string;
  from: string;
  logger: Logger;
}): Mailer {
  const { logger } = options;
  if (options.transport === 'log') {
    return {
      send: async (mail) => {
        logger.info({ mail: { to: mail.to, subject: mail.subject } }, `Mail (MAIL_TRANSPORT=log):\n${mail.text}`);
      },
      close: () => undefined,
    };
  }
  if (options.transport === 'disabled' || !options.smtpUrl) {
    return {
      send: async (mail) => {
        logger.warn(
          { mail: { to: mail.to, subject: mail.subject } },
          'Mail not sent: mail is not configured (set SMTP_URL, or MAIL_TRANSPORT=log to write mail to the log)',
        );
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

/** Says at start where mail goes when it is not sent by SMTP. */
export function announceMailTransport(config: Pick<Config, 'mailTransport' | 'MAIL_TRANSPORT'>, logger: Logger): void {
  if (config.mailTransport === 'log') {
    const why = config.MAIL_TRANSPORT === 'log' ? 'MAIL_TRANSPORT=log' : 'the embedded default without SMTP_URL';
    logger.warn(`Mail is written to the log (${why}), reset and invitation links included. Set SMTP_URL to send mail.`);
  } else if (config.mailTransport === 'disabled') {
    logger.warn(
      'Mail is not configured: no mail is sent (password resets and invitations included). Set SMTP_URL, or MAIL_TRANSPORT=log to write mail to the log.',
    );
  }
}
