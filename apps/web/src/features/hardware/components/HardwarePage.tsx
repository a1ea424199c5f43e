/** Placeholder until this screen is built. */
export function HardwarePage() {
  return <div>Hardware</div>;
}
