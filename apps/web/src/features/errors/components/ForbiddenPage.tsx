import { IconLock } from '@tabler/icons-react';
import { ErrorScreen } from './ErrorScreen';

/** /forbidden: the signed-in user has no access to what they asked for. */
export function ForbiddenPage() {
  return (
    <ErrorScreen icon={<IconLock size={32} aria-hidden />} title="You do not have access to Plinth.">
      Please make sure you have received an invitation.
    </ErrorScreen>
  );
}
