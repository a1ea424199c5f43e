import { Button, Code, CopyButton, Group } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

export type CopyValueProps = {
  value: string;
  /** The value's accessible name. */
  label: string;
  /** Makes the button read 'Copy <name>' / 'Copied <name>'; without it just Copy / Copied. */
  copyName?: string;
  testId?: string;
};

/** A value with a Copy button that reads Copied for a moment after copying (tokens, ids, API keys). */
export function CopyValue({ value, label, copyName, testId }: CopyValueProps) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ overflowWrap: 'anywhere' }} aria-label={label} data-testid={testId}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            size="xs"
            variant={copied ? 'filled' : 'light'}
            color={copied ? 'teal' : undefined}
            leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            onClick={copy}
            aria-label={copyName ? `${copied ? 'Copied' : 'Copy'} ${copyName}` : undefined}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
