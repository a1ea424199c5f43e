import type { Mail } from './mailer.js';

export function invitationMail(to: string, link: string, scopeName: string, inviterName: string): Mail {
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

export function supportTicketMail(
  to: string,
  from: { email: string; name: string },
  subject: string,
  description: string,
): Mail {
  return {
    to,
    replyTo: from.email,
    subject: `[Plinth ticket] ${subject}`,
    text: `Ticket from ${from.name} <${from.email}>\n\n${description}\n`,
  };
}
