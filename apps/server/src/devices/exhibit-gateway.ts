import type { AppDeps } from '../deps.js';

/**
 * The exhibit side: SDK connections on /ws, their online state, and what the console sends to
 * exhibits (controls, settings, op mode). Filled in by the exhibit SDK work.
 */
export type ExhibitGateway = {
  /** True while the exhibit has a live SDK connection on this node. */
  isConnected: (exhibitId: string) => boolean;
  close: () => Promise<void>;
};

export function createExhibitGateway(_deps: AppDeps): ExhibitGateway {
  return { isConnected: () => false, close: async () => undefined };
}
