/** Placeholder until this screen is built. */
export function ForgotPasswordPage() {
  return <div>Forgot password</div>;
}
