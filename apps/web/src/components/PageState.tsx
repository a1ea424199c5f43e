import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ItemType } from './ItemPageHeader';

export type PageStateProps =
  /** An item screen: `loading` while its record is read; `forbidden` when the server answered 403 and the screen stays. */
  | { itemType: ItemType; kind: 'loading' | 'forbidden' }
  /** A list inside a screen (a tab's table): `label` names its loader, or says it is empty or could not be read. */
  | { kind: 'loading' | 'empty' | 'error'; label: string; onRetry?: () => void; isRetrying?: boolean };

/**
 * What an item screen, or a list inside one, shows instead of its content: a loader while it
 * loads, the notice of a 403, or the text of an empty or failed list (with Retry when given
 * `onRetry`). Other load failures of an item leave the screen (`useLoadFailureRedirect`) for home or the not-found page, as each
 * screen's rule says (spec section 4).
 */
export function PageState(props: PageStateProps) {
  const content = (() => {
    if ('itemType' in props) {
      return props.kind === 'loading' ? <Loader aria-label={`Loading ${props.itemType}`} /> : <Text>You do not have access to this {props.itemType}.</Text>;
    }
    if (props.kind === 'loading') return <Loader aria-label={props.label} />;
    if (props.kind === 'error') {
      const text = (
        <Text c="red" role="alert">
          {props.label}
        </Text>
      );
      if (!props.onRetry) return text;
      return (
        <Stack align="center" gap="xs">
          {text}
          <Button size="xs" variant="light" color="red" loading={props.isRetrying} onClick={props.onRetry}>
            Retry
          </Button>
        </Stack>
      );
    }
    return <Text c="dimmed">{props.label}</Text>;
  })();
  return <Center p="xl">{content}</Center>;
}
