import { Center, Loader, Text } from '@mantine/core';
import type { ItemType } from './ItemPageHeader';

export type PageStateProps = {
  itemType: ItemType;
  /** `loading` while the record is read; `forbidden` when the server answered 403 and the screen stays. */
  kind: 'loading' | 'forbidden';
};

/**
 * What an item screen shows instead of its content: a loader while its record loads, or the
 * notice of a 403. Other load failures leave the screen (`useLoadFailureRedirect`) for home or the
 * not-found page, as each screen's rule says (spec section 4).
 */
export function PageState({ itemType, kind }: PageStateProps) {
  return (
    <Center p="xl">
      {kind === 'loading' ? <Loader aria-label={`Loading ${itemType}`} /> : <Text>You do not have access to this {itemType}.</Text>}
    </Center>
  );
}
