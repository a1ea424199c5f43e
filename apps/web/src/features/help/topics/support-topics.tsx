import { Anchor, List, Stack, Text } from '@mantine/core';
import type { HelpContext } from './help-context';

/** bug */
export function BugTopic({ supportEmail }: HelpContext) {
  return (
    <Stack gap="md">
      <Text>Found something that does not work as it should? Tell us and we will look into it.</Text>
      <Text>
        Use Submit a Ticket in the profile menu at the top right of any page, or write to{' '}
        {supportEmail ? (
          <Anchor href={`mailto:${supportEmail}`}>{supportEmail}</Anchor>
        ) : (
          'the support address of your Plinth server'
        )}
        .
      </Text>
      <Text>A good report includes:</Text>
      <List spacing="xs">
        <List.Item>what you did, step by step, and the page address;</List.Item>
        <List.Item>what you expected and what happened instead, with the exact text of any error message;</List.Item>
        <List.Item>the exhibit or hardware concerned, and the time it happened (the Logs tab helps here);</List.Item>
        <List.Item>your browser, or the SDK and firmware versions for device problems.</List.Item>
      </List>
      <Text>Please do not send passwords or exhibit and hardware tokens; we will never ask for them.</Text>
    </Stack>
  );
}
