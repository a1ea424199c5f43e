import { GREETING_AFTERNOON_BEFORE_HOUR, GREETING_MORNING_BEFORE_HOUR } from '@plinth/shared';

export type Greeting = 'Good Morning' | 'Good Afternoon' | 'Good Evening';

/** The home greeting for a local time: before 12 morning, before 16 afternoon, else evening. */
export function greetingFor(date: Date): Greeting {
  const hour = date.getHours();
  if (hour < GREETING_MORNING_BEFORE_HOUR) return 'Good Morning';
  if (hour < GREETING_AFTERNOON_BEFORE_HOUR) return 'Good Afternoon';
  return 'Good Evening';
}
