import { EXHIBIT_USER_MESSAGES } from '@plinth/shared';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/mutation-state';

/**
 * The text of a failed Add User (spec 8): a 403 means a manager named an email without an
 * account; a duplicate (409) says so unless the server sent its own text; anything else shows the
 * server's text.
 */
export function addUserErrorText(error: unknown): string {
  if (!(error instanceof ApiError)) return errorText(error, EXHIBIT_USER_MESSAGES.alreadyAdded);
  if (error.status === 403) return EXHIBIT_USER_MESSAGES.managersOnlyExisting;
  if (error.status === 409 && !error.response) return EXHIBIT_USER_MESSAGES.alreadyAdded;
  return error.message || EXHIBIT_USER_MESSAGES.alreadyAdded;
}
