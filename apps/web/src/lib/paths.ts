/** The console's routes (spec section 2), built in one place. */
export const paths = {
  home: () => '/',
  login: () => '/login',
  /** The signed-in user's two-factor sign-in (set up, turn off). */
  twoFactor: () => '/account/two-factor',
  forgotPassword: () => '/forgot-password',
  resetPassword: () => '/reset-password',
  createAccount: () => '/create-account',
  help: (helpId = 'create_new_exhibit') => `/help/${helpId}`,
  organization: (orgId: string, tab: 'sites' | 'users' | 'settings' | 'api-keys' = 'sites') => `/organization/${orgId}/${tab}`,
  site: (orgId: string, siteId: string, tab: 'exhibits' | 'hardware' | 'users' | 'reports' | 'settings' = 'exhibits') =>
    `/organization/${orgId}/site/${siteId}/${tab}`,
  exhibit: (orgId: string, siteId: string, exhibitId: string, tab = 'overview') =>
    `/organization/${orgId}/site/${siteId}/exhibits/${exhibitId}/${tab}`,
  hardware: (orgId: string, siteId: string, hardwareId: string, tab = 'overview') =>
    `/organization/${orgId}/site/${siteId}/hardware/${hardwareId}/${tab}`,
  /** The organization's audit log, optionally filtered to one site, exhibit or board. */
  auditLog: (orgId: string, filter: { siteId?: string; exhibitId?: string; hardwareId?: string } = {}) => {
    const query = new URLSearchParams(Object.entries(filter).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
    return `/organization/${orgId}/audit-log${query ? `?${query}` : ''}`;
  },
  notFound: () => '/notfound',
  forbidden: () => '/forbidden',
};

/** Paths usable without a session. */
export const PUBLIC_PATHS = ['/login', '/create-account', '/forgot-password', '/reset-password'];
