import { List, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { PASSWORD_RULES } from '@plinth/shared';

/** The live password-rule checklist under a password field: one line per shared rule, with a pass or fail icon. */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <List spacing={4} size="sm" aria-label="Password rules" center>
      {PASSWORD_RULES.map((rule) => {
        const passed = rule.test(password);
        return (
          <List.Item
            key={rule.label}
            data-passed={passed}
            c={passed ? 'teal.8' : 'dimmed'}
            icon={
              <ThemeIcon color={passed ? 'teal' : 'gray'} size={18} radius="xl" variant={passed ? 'filled' : 'light'}>
                {passed ? (
                  <IconCheck size={12} aria-label="Rule met" />
                ) : (
                  <IconX size={12} aria-label="Rule not met" />
                )}
              </ThemeIcon>
            }
          >
            {rule.label}
          </List.Item>
        );
      })}
    </List>
  );
}
