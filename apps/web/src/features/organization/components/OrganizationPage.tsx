/** Placeholder until this screen is built. */
export function OrganizationPage() {
  return <div>Organization</div>;
}
