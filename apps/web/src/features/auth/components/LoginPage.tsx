/** Placeholder until this screen is built. */
export function LoginPage() {
  return <div>Login</div>;
}
