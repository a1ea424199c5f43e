import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@plinth/shared';
import { AppError } from '../../lib/app-error.js';
import { accessNoticesDuring, createExhibit, createOrganization, createSite, grant, uniqueName } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/test-server.js';
import { loadGrants, type Grants } from '../access/grants.js';
import type { AuditContext } from '../audit/audit-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { findUserById } from '../auth/users.repository.js';
import { deleteGrant, findGrant, insertGrant, listPermissionRows, updateGrantRole, type GrantScope } from './permission.repository.js';
import { createPermission, deletePermission, listPermissions, updatePermission, type PermissionScope } from './permission.service.js';

let server: TestServer;

/** Who the service calls are made by, for the audit log. */
const AUDIT: AuditContext = { actor: { kind: 'user', id: 'test', label: 'test@example.com' }, address: '192.0.2.9' };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

/** A signed-up user holding `role` on the thing, with what the service needs of them. */
async function holder(scope: GrantScope, id: string, role: Role): Promise<{ user: AuthUser; grants: Grants; grantId: string }> {
  const { id: userId } = await server.signUp();
  const grantId = await grant(server.deps.db, scope, id, userId, role);
  const { email, firstName, lastName, profileImage, isPlatformAdmin } = (await findUserById(server.deps.db, userId))!;
  const user: AuthUser = { id: userId, email, firstName, lastName, profileImage, isPlatformAdmin };
  return { user, grants: await loadGrants(server.deps.db, user), grantId };
}

/** The error code a call fails with. */
async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return `${error.code}${error.response === error.code ? '' : `: ${error.response}`}`;
    throw error;
  }
  throw new Error('the call succeeded');
}

/** The access notices announced for `userId` while `run` runs. */
const noticesDuring = (userId: string, run: () => Promise<unknown>) => accessNoticesDuring(server, userId, run);

/** An organization or a site to grant roles on, made fresh for each test. */
async function thingOf(scope: PermissionScope): Promise<string> {
  const organization = await createOrganization(server.deps.db, uniqueName('Museum'));
  if (scope === 'organization') return organization.id;
  return (await createSite(server.deps.db, organization.id, 'Hall')).id;
}

describe.each<PermissionScope>(['organization', 'site'])('the permission service over %s grants', (scope) => {
  it('lists the grants of the thing and tells a manager they may manage them', async () => {
    const id = await thingOf(scope);
    const manager = await holder(scope, id, 'MANAGER');
    const viewer = await holder(scope, id, 'VIEWER');
    const list = await listPermissions(server.deps, manager.grants, { scope, id });
    expect(list.canManage).toBe(true);
    expect(list.permissions.map((p) => [p.userId, p.role]).sort()).toEqual(
      [
        [manager.user.id, 'manager'],
        [viewer.user.id, 'viewer'],
      ].sort(),
    );
    expect((await listPermissions(server.deps, viewer.grants, { scope, id })).canManage).toBe(false);
  });

  it('adds an existing user once (viewer by default), and refuses a second grant', async () => {
    const id = await thingOf(scope);
    const manager = await holder(scope, id, 'MANAGER');
    const someone = await server.signUp();
    const input = { on: { scope, id }, email: someone.email, inviter: manager.user, ip: '192.0.2.1', audit: AUDIT };
    const added = await createPermission(server.deps, manager.grants, input);
    expect(added).toMatchObject({ userId: someone.id, email: someone.email, role: 'viewer', accountCreated: true });
    expect(await failure(createPermission(server.deps, manager.grants, { ...input, role: 'MANAGER' }))).toBe('UserAlreadyAdded');
  });

  it('invites an unknown email: the user is created without an account and mailed a link', async () => {
    const id = await thingOf(scope);
    const manager = await holder(scope, id, 'MANAGER');
    const email = `${uniqueName('invitee').replace(/\W+/g, '.')}@example.com`.toLowerCase();
    const added = await createPermission(server.deps, manager.grants, {
      on: { scope, id },
      email,
      role: 'DEVELOPER',
      inviter: manager.user,
      ip: '192.0.2.2',
      audit: AUDIT,
    });
    expect(added).toMatchObject({ email, role: 'developer', accountCreated: false });
    const mail = await server.mail.waitFor(email);
    expect(mail.subject).toMatch(/^You have been invited to .+ on Plinth$/);
  });

  it('refuses users below manager (403) and people who cannot see the thing (404)', async () => {
    const id = await thingOf(scope);
    const developer = await holder(scope, id, 'DEVELOPER');
    const elsewhere = await holder(scope, await thingOf(scope), 'MANAGER');
    const someone = await server.signUp();
    const input = { on: { scope, id }, email: someone.email, ip: '192.0.2.3', audit: AUDIT };
    expect(await failure(createPermission(server.deps, developer.grants, { ...input, inviter: developer.user }))).toBe('Forbidden');
    expect(await failure(createPermission(server.deps, elsewhere.grants, { ...input, inviter: elsewhere.user }))).toBe('NotFound');
    expect(await failure(listPermissions(server.deps, elsewhere.grants, { scope, id }))).toBe('NotFound');
  });

  it('changes and removes a grant, announcing each change to the user it was for', async () => {
    const id = await thingOf(scope);
    const manager = await holder(scope, id, 'MANAGER');
    const viewer = await holder(scope, id, 'VIEWER');
    const changed = await noticesDuring(viewer.user.id, () =>
      updatePermission(server.deps, manager.grants, { scope, grantId: viewer.grantId, role: 'DEVELOPER', audit: AUDIT }),
    );
    expect(changed).toEqual([{ type: 'access.changed', userId: viewer.user.id, reason: 'grant' }]);
    expect((await findGrant(server.deps.db, { scope, grantId: viewer.grantId }))?.userId).toBe(viewer.user.id);
    const removed = await noticesDuring(viewer.user.id, () => deletePermission(server.deps, manager.grants, { scope, grantId: viewer.grantId, audit: AUDIT }));
    expect(removed).toEqual([{ type: 'access.changed', userId: viewer.user.id, reason: 'grant' }]);
    expect(await findGrant(server.deps.db, { scope, grantId: viewer.grantId })).toBeUndefined();
  });

  it('never lets anyone change or remove their own grant', async () => {
    const id = await thingOf(scope);
    const manager = await holder(scope, id, 'MANAGER');
    const own = { scope, grantId: manager.grantId, audit: AUDIT };
    const message = 'ValidationError: You cannot change your own role.';
    expect(await failure(updatePermission(server.deps, manager.grants, { ...own, role: 'VIEWER' }))).toBe(message);
    expect(await failure(deletePermission(server.deps, manager.grants, own))).toBe(message);
  });
});

describe('grants of one scope are not reachable through another', () => {
  it('answers 404 for an organization grant asked for as a site grant, and the other way round', async () => {
    const organizationId = await thingOf('organization');
    const siteId = (await createSite(server.deps.db, organizationId, 'Hall')).id;
    const manager = await holder('organization', organizationId, 'MANAGER');
    const orgViewer = await holder('organization', organizationId, 'VIEWER');
    const siteViewer = await holder('site', siteId, 'VIEWER');
    expect(await failure(deletePermission(server.deps, manager.grants, { scope: 'site', grantId: orgViewer.grantId, audit: AUDIT }))).toBe('NotFound');
    expect(await failure(deletePermission(server.deps, manager.grants, { scope: 'organization', grantId: siteViewer.grantId, audit: AUDIT }))).toBe(
      'NotFound',
    );
  });
});

describe('the permission repository over exhibit grants', () => {
  it('stores, lists, changes and removes an exhibit grant like the others', async () => {
    const organization = await createOrganization(server.deps.db, uniqueName('Museum'));
    const site = await createSite(server.deps.db, organization.id, 'Hall');
    const exhibit = await createExhibit(server.deps.db, site.id, 'Volcano');
    const { id: userId } = await server.signUp();
    const grantId = await insertGrant(server.deps.db, { scope: 'exhibit', scopeId: exhibit.id, userId, role: 'VIEWER' });
    const ref = { scope: 'exhibit' as const, grantId };
    expect(await findGrant(server.deps.db, ref)).toEqual({ id: grantId, userId, scopeId: exhibit.id });
    await updateGrantRole(server.deps.db, ref, 'DEVELOPER');
    const rows = await listPermissionRows(server.deps.db, { scope: 'exhibit', id: exhibit.id });
    expect(rows.map((row) => [row.id, row.userId, row.role])).toEqual([[grantId, userId, 'DEVELOPER']]);
    await deleteGrant(server.deps.db, ref);
    expect(await listPermissionRows(server.deps.db, { scope: 'exhibit', id: exhibit.id })).toEqual([]);
  });
});
