import { Alert } from '@mantine/core';

/** The error line of a dialog, rendered as text. */
export function DialogError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" p="xs">
      {message}
    </Alert>
  );
}
