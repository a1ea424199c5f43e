import type { Mail } from './mailer.js';

/** Where an exhibit sits, as a notification names it. */
export type NotificationPlace = { organization: string; site: string; exhibit: string };

/** One notification about an exhibit, in plain text (device and user text is never read as markup). */
export type ExhibitNotification = {
  to: string;
  place: NotificationPlace;
  /** What happened, short (the subject's end), e.g. "offline", "op mode changed to On". */
  headline: string;
  /** What happened, as sentences or log lines. */
  details: string[];
  /** The console tab that shows it. */
  link: string;
  /** Why the reader gets this mail (the toggle's label) and the link that turns it off; none once the exhibit is gone. */
  subscription: { label: string; unsubscribeLink: string } | null;
};

/**
 * A notification mail: the subject names the exhibit, its site and organization and what
 * happened; the text says it again with the console link, and how to stop these mails (the
 * one-click link also goes in List-Unsubscribe headers, RFC 8058).
 */
export function exhibitNotificationMail({ to, place, headline, details, link, subscription }: ExhibitNotification): Mail {
  const where = `${place.exhibit} (${place.site}, ${place.organization})`;
  const footer = subscription
    ? `\n\nYou receive this mail because "${subscription.label}" is on for you on this exhibit. ` +
      `Turn it off with one click:\n${subscription.unsubscribeLink}\n`
    : '\n';
  return {
    to,
    subject: `[Plinth] ${where}: ${headline}`,
    text:
      `${details.join('\n')}\n\n` +
      `Organization: ${place.organization}\nSite: ${place.site}\nExhibit: ${place.exhibit}\n\n` +
      `Open it in Plinth:\n${link}` +
      footer,
  };
}

/** The headers of a notification mail with a one-click unsubscribe link (RFC 2369, RFC 8058). */
export function unsubscribeHeaders(unsubscribeLink: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
