import { IconMapSearch } from '@tabler/icons-react';
import { ErrorScreen } from './ErrorScreen';

/** /notfound: the thing does not exist, or the user may not see it (the server answers the same 404). */
export function NotFoundPage() {
  return <ErrorScreen icon={<IconMapSearch size={32} aria-hidden />} title="Page not found or not accessible." />;
}
