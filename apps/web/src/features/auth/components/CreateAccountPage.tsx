/** Placeholder until this screen is built. */
export function CreateAccountPage() {
  return <div>Create account</div>;
}
