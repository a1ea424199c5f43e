/** Placeholder until this screen is built. */
export function ResetPasswordPage() {
  return <div>Reset password</div>;
}
