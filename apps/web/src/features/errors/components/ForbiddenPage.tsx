/** Placeholder until this screen is built. */
export function ForbiddenPage() {
  return <div>Forbidden</div>;
}
