/** Placeholder until this screen is built. */
export function NotFoundPage() {
  return <div>Not found</div>;
}
