import { Button, Code, Group } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

export type CopyValueProps = {
  value: string;
  /** The value's accessible name. */
  label: string;
  /** Makes the button read 'Copy <name>' / 'Copied <name>'; without it just Copy / Copied. */
  copyName?: string;
  testId?: string;
};

/** How long the button reads Copied after a copy. */
const COPIED_MS = 1000;

/**
 * Copies a value and says Copied for a moment. Unlike Mantine's useClipboard, its timer ends with
 * the component: a Copied that outlives its screen would set state on an unmounted tree.
 */
function useCopy(value: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);
  const copy = () => {
    // Browsers give pages served over plain http (other than localhost) no clipboard.
    if (!('clipboard' in navigator)) return;
    navigator.clipboard.writeText(value).then(
      () => {
        if (!mounted.current) return;
        clearTimeout(timer.current);
        setCopied(true);
        timer.current = setTimeout(() => setCopied(false), COPIED_MS);
      },
      () => undefined, // the browser refused (no permission, no focus): the button stays Copy
    );
  };
  return { copied, copy };
}

/** A value with a Copy button that reads Copied for a moment after copying (tokens, ids, API keys). */
export function CopyValue({ value, label, copyName, testId }: CopyValueProps) {
  const { copied, copy } = useCopy(value);
  return (
    <Group gap="xs" wrap="nowrap">
      <Code style={{ overflowWrap: 'anywhere' }} aria-label={label} data-testid={testId}>
        {value}
      </Code>
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
    </Group>
  );
}
