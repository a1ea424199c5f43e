/** Placeholder until this screen is built. */
export function ExhibitPage() {
  return <div>Exhibit</div>;
}
