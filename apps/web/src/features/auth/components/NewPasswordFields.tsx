import { Alert, Button, PasswordInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { PasswordChecklist } from './PasswordChecklist';

export type NewPasswordFieldsProps = {
  label: string;
  /** The password field's value and change handler, from the form. */
  inputProps: GetInputPropsReturnType;
  password: string;
  /** The failed call's text, shown above the button. */
  error: string | null;
  submitLabel: string;
  isSubmitDisabled: boolean;
  isBusy: boolean;
  isFocused?: boolean;
};

/** The end of the account forms: the new password, its live rule checklist (spec section 5), the call's error and the submit button. */
export function NewPasswordFields({ label, inputProps, password, error, submitLabel, isSubmitDisabled, isBusy, isFocused }: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordInput label={label} autoComplete="new-password" {...inputProps} data-autofocus={isFocused || undefined} />
      <PasswordChecklist password={password} />
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Button type="submit" disabled={isSubmitDisabled} loading={isBusy} fullWidth>
        {submitLabel}
      </Button>
    </>
  );
}
