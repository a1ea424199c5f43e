import type { UseFormReturnType } from '@mantine/form';

/**
 * Puts a form back to `values`, which become its initial values too (so `isDirty` and `reset`
 * compare with them): a dialog opening on the current state, a field taking a newly saved value.
 */
export function resetForm<Values>(form: Pick<UseFormReturnType<Values>, 'setInitialValues' | 'reset'>, values: Values): void {
  form.setInitialValues(values);
  form.reset();
}
