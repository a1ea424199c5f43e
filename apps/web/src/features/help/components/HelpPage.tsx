/** Placeholder until this screen is built. */
export function HelpPage() {
  return <div>Help</div>;
}
