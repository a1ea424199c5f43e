import { Title } from '@mantine/core';
import { greetingFor } from '../greeting';

/** 'Good Morning, Ada': the time-of-day greeting with the user's first name. */
export function Greeting({ now, firstName }: { now: Date; firstName: string | undefined }) {
  const name = firstName?.trim();
  return (
    <Title order={1} fz="h2">
      {name ? `${greetingFor(now)}, ${name}` : greetingFor(now)}
    </Title>
  );
}
