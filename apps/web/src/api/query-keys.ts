/** Every TanStack Query key of the console, in one place, so the realtime cache patcher and the mutations agree. */
export const queryKeys = {
  me: ['auth', 'me'] as const,
  loginMethods: ['auth', 'login-methods'] as const,
  config: ['config'] as const,
  organizations: ['organizations'] as const,
  organization: (id: string) => ['organization', id] as const,
  organizationSites: (id: string) => ['organization', id, 'sites'] as const,
  sites: ['sites'] as const,
  site: (id: string) => ['site', id] as const,
  siteSettings: (id: string) => ['site', id, 'settings'] as const,
  /** All exhibit lists start with 'exhibits'. */
  exhibits: ['exhibits'] as const,
  exhibitsBySites: (siteIds: string[]) => ['exhibits', 'by-sites', [...siteIds].sort().join(',')] as const,
  exhibit: (id: string) => ['exhibit', id] as const,
  /** Exhibit runtime data (manifest with live values, the caller's role, tokens). */
  exhibitManifest: (id: string) => ['exhibit-runtime', id, 'manifest'] as const,
  exhibitRole: (id: string) => ['exhibit-runtime', id, 'role'] as const,
  exhibitTokens: (id: string) => ['exhibit-runtime', id, 'tokens'] as const,
  /** All hardware lists start with 'hardware-list'. */
  hardwareLists: ['hardware-list'] as const,
  hardwareBySite: (siteId: string) => ['hardware-list', 'site', siteId] as const,
  hardwareBySites: (siteIds: string[]) => ['hardware-list', 'sites', [...siteIds].sort().join(',')] as const,
  hardwareByExhibit: (exhibitId: string) => ['hardware-list', 'exhibit', exhibitId] as const,
  hardware: (id: string) => ['hardware', id] as const,
  hardwareTokens: (id: string) => ['hardware', id, 'tokens'] as const,
  hardwareFirmware: (id: string) => ['hardware', id, 'firmware'] as const,
  organizationPermissions: (id: string) => ['permissions', 'organization', id] as const,
  sitePermissions: (id: string) => ['permissions', 'site', id] as const,
};
