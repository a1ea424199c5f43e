import type { Mail } from './mailer.js';

/** Who is invited where, and by whom. */
export type Invitation = {
  to: string;
  /** The create-account link (works once, expires in 7 days). */
  link: string;
  /** What the invitation gives access to, as the invited person reads it (an organization, or a site and its organization). */
  scopeName: string;
  inviterName: string;
};

/** Tells someone without an account that they were given access, with the link that creates the account. */
export function invitationMail({ to, link, scopeName, inviterName }: Invitation): Mail {
  return {
    to,
    subject: `You have been invited to ${scopeName} on Plinth`,
    text:
      `${inviterName} has given you access to ${scopeName} on Plinth, the console for interactive exhibits.\n\n` +
      `Create your account here (the link works once and expires in 7 days):\n${link}\n`,
  };
}

export function firstAdminMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Create your Plinth account',
    text: `Create your Plinth account here (the link works once and expires in 7 days):\n${link}\n`,
  };
}

export function resetPasswordMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Reset your Plinth password',
    text:
      'Somebody asked to reset the password of your Plinth account. If it was you, choose a new password here ' +
      `(the link works once and expires in 24 hours):\n${link}\n\nIf it was not you, ignore this mail.`,
  };
}

/** A support ticket from a signed-in user, to the installation's support address. */
export type SupportTicket = { to: string; from: { email: string; name: string }; subject: string; description: string };

/** The ticket as mailed to support; replies go to the user who sent it. */
export function supportTicketMail({ to, from, subject, description }: SupportTicket): Mail {
  return {
    to,
    replyTo: from.email,
    subject: `[Plinth ticket] ${subject}`,
    text: `Ticket from ${from.name} <${from.email}>\n\n${description}\n`,
  };
}
