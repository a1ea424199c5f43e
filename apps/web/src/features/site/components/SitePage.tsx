/** Placeholder until this screen is built. */
export function SitePage() {
  return <div>Site</div>;
}
