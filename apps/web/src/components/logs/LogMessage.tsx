import { Code, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import { readMessage } from './log-message';

/**
 * One log message, always as text (React escapes it; never HTML): JSON shows a one-line summary
 * that expands to the pretty-printed value, anything else its plain text, line breaks kept.
 */
export function LogMessage({ message }: { message: string }) {
  const readable = useMemo(() => readMessage(message), [message]);
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  if (readable.kind === 'text') {
    return (
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="log-message">
        {readable.text}
      </Text>
    );
  }
  return (
    <div data-testid="log-message">
      <UnstyledButton
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        aria-controls={bodyId}
        style={{ maxWidth: '100%' }}
      >
        <Group gap={4} wrap="nowrap" align="flex-start">
          {open ? <IconChevronDown size={14} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} /> : <IconChevronRight size={14} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />}
          <VisuallyHidden>{open ? 'Collapse JSON message: ' : 'Expand JSON message: '}</VisuallyHidden>
          <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>{readable.summary}</Code>
        </Group>
      </UnstyledButton>
      {open && (
        <Code block id={bodyId} mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="log-message-json">
          {readable.pretty}
        </Code>
      )}
    </div>
  );
}
