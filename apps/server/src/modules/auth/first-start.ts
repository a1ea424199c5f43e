import type { AppDeps } from '../../deps.js';
import { createAccountLink } from './account-links.service.js';
import { countUsers } from './users.repository.js';

/**
 * On a start with no user at all, prints a one-time link that creates the first platform admin
 * (each start replaces the previous link). Answers the link, or null when users exist.
 */
export async function announceFirstStart(deps: AppDeps): Promise<string | null> {
  if ((await countUsers(deps.db)) > 0) return null;
  const link = await createAccountLink(deps, 'setup', null);
  const banner = [
    '',
    '  No Plinth user exists yet. Create the first platform admin with this one-time link',
    '  (valid for 7 days, replaced at each start until used):',
    '',
    `    ${link}`,
    '',
    '  Or stop the server and run: npx plinth user create --email <email> --password <password> --platform-admin',
    '',
  ].join('\n');
  deps.logger.warn(banner);
  return link;
}
