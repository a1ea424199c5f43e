/** Placeholder until this screen is built. */
export function HomePage() {
  return <div>Home</div>;
}
