/**
 * The product analytics client. It is a no-op unless the server's configuration names an
 * ANALYTICS_URL; then page views and a few events are posted there (no personal data beyond the
 * user id).
 */
let endpoint: string | null = null;
let userId: string | null = null;

export const analytics = {
  init(url: string | null): void {
    endpoint = url;
  },
  identify(id: string | null): void {
    userId = id;
  },
  track(event: string, properties: Record<string, unknown> = {}): void {
    if (!endpoint) return;
    const body = JSON.stringify({ event, userId, properties, at: new Date().toISOString() });
    void fetch(endpoint, { method: 'POST', body, headers: { 'content-type': 'application/json' }, keepalive: true }).catch(
      () => undefined,
    );
  },
  reset(): void {
    userId = null;
  },
  get enabled(): boolean {
    return endpoint !== null;
  },
};
