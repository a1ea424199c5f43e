import { Button } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { API_BASE } from '../../../lib/api-client';

/** 'Sign in with Google': a plain link, so the browser itself navigates to the single sign-on start. */
export function GoogleSignInButton() {
  return (
    <Button
      component="a"
      href={`${API_BASE}/auth/google`}
      variant="default"
      fullWidth
      leftSection={<IconBrandGoogle size={18} aria-hidden />}
    >
      Sign in with Google
    </Button>
  );
}
