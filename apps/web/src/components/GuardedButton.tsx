import { Button, type ButtonProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, MouseEvent } from 'react';
import { useClickGuard } from './useClickGuard';

type Props = ButtonProps & Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps>;

/** A button that ignores clicks for one second after a click (spec: double-click guard). */
export function GuardedButton({ onClick, ...props }: Props) {
  const guarded = useClickGuard((event: MouseEvent<HTMLButtonElement>) => onClick?.(event));
  return <Button {...props} onClick={guarded} />;
}
