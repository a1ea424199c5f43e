/** Roles a user may hold on an organization, a site or an exhibit (design.md section 3). */
export const ROLES = ['MANAGER', 'DEVELOPER', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];
/** The lowercase names the organization and site calls use. */
export type LowerRole = Lowercase<Role>;

/** Default role for a new organization, site or exhibit user. */
export const DEFAULT_ROLE: Role = 'VIEWER';

const RANK: Record<Role, number> = { VIEWER: 1, DEVELOPER: 2, MANAGER: 3 };

/** Accepts either case ('manager' or 'MANAGER'); null for anything else. */
export function parseRole(value: unknown): Role | null {
  if (typeof value !== 'string') return null;
  const upper = value.toUpperCase();
  return (ROLES as readonly string[]).includes(upper) ? (upper as Role) : null;
}

export function toLowerRole(role: Role): LowerRole {
  return role.toLowerCase() as LowerRole;
}

/** True when `role` is at least `min`. A null role (no grant) is never enough. */
export function hasRole(role: Role | null | undefined, min: Role): boolean {
  return role != null && RANK[role] >= RANK[min];
}

/** The more specific grant wins: exhibit, else site, else organization. */
export function effectiveRole(...mostSpecificFirst: (Role | null | undefined)[]): Role | null {
  for (const role of mostSpecificFirst) if (role) return role;
  return null;
}

/**
 * What each right needs. The server enforces these on every call; the console only hides what
 * the server would refuse anyway.
 */
export const RIGHTS = {
  /** See the thing, fire controls, read logs, reports, files and settings. */
  view: 'VIEWER',
  fireControl: 'VIEWER',
  /** Edit settings, op mode, lock, debug mode, files, firmware, schedules. */
  editSettings: 'DEVELOPER',
  /** Upload and delete an exhibit's files. */
  editFiles: 'DEVELOPER',
  operate: 'DEVELOPER',
  /** Create, edit and delete an exhibit's scheduled events (the spec's canModify). */
  editSchedules: 'DEVELOPER',
  /** The tabs a viewer does not get (spec 2.1): the calendar and the notification toggles. */
  seeSchedules: 'DEVELOPER',
  seeNotifications: 'DEVELOPER',
  /** Create, rename and delete exhibits and hardware; create tokens. */
  manageDevices: 'DEVELOPER',
  createToken: 'DEVELOPER',
  /** Manage users and roles at this scope; delete tokens. */
  manageUsers: 'MANAGER',
  deleteToken: 'MANAGER',
  /** Organization: edit, delete, create sites, edit its settings (isAdmin / canCreate). Site: edit and delete it. */
  administer: 'MANAGER',
} as const satisfies Record<string, Role>;

export type Right = keyof typeof RIGHTS;

export function can(role: Role | null | undefined, right: Right): boolean {
  return hasRole(role, RIGHTS[right]);
}

/** Role options shown in role dropdowns. */
export const ROLE_OPTIONS: readonly { value: LowerRole; label: string }[] = [
  { value: 'manager', label: 'Manager' },
  { value: 'developer', label: 'Developer' },
  { value: 'viewer', label: 'Viewer' },
];
