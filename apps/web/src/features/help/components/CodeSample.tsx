import { Code, Text } from '@mantine/core';

/** A block of sample code or JSON in a help topic, rendered as text. */
export function CodeSample({ code, caption }: { code: string; caption?: string }) {
  return (
    <figure style={{ margin: 0 }}>
      {caption && (
        <Text component="figcaption" size="xs" c="dimmed" mb={4}>
          {caption}
        </Text>
      )}
      <Code block style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
        {code}
      </Code>
    </figure>
  );
}
