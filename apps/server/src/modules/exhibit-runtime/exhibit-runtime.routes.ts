import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  can,
  ControlQuery,
  ControlResultSchema,
  CopyListItemBody,
  CreateListItemBody,
  DeleteListItemQuery,
  ExhibitAuthenticateBody,
  ExhibitCredentialSchema,
  Id,
  IdParams,
  ManifestResponseSchema,
  Name,
  OkSchema,
  OpModeBody,
  OrderListBody,
  SetSettingBody,
  StrapiContentBody,
  TokenSchema,
  UpperRoleSchema,
  type Right,
  type Role,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { requireUser } from '../../lib/request-user.js';
import { assertRight } from '../access/grants.js';
import { findExhibitRefs } from '../access/refs.repository.js';
import {
  copyListItem,
  createListItem,
  deleteListItem,
  fireControl,
  getManifest,
  orderListItems,
  saveSetting,
  saveStrapiContent,
  setOpMode,
  syncFollowers,
} from './exhibit-runtime.service.js';
import {
  authenticateExhibit,
  createExhibitToken,
  deleteExhibitToken,
  findExhibitToken,
  listExhibitTokens,
} from './exhibit-tokens.service.js';

const Key = z.string().min(1).max(200);
const KeyParams = (name: string) => z.object({ id: Id, [name]: Key });

/** The caller's role on an exhibit, or 404/403 when it does not allow `right`. */
async function authorize(deps: AppDeps, request: FastifyRequest, exhibitId: string, right: Right): Promise<Role> {
  requireUser(request);
  const [ref] = await findExhibitRefs(deps.db, [exhibitId]);
  const grants = await request.grants();
  return assertRight(ref ? grants.exhibitRole(ref) : null, right, 'The exhibit does not exist.');
}

const ok = { ok: true as const };

/**
 * The exhibit runtime calls: exhibit tokens and the SDK's authenticate call, the manifest with
 * live values, controls, settings, setting lists, op mode, follower sync, the caller's role.
 */
export function exhibitRuntimeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['exhibit runtime'];
    const base = '/exhibit-management/exhibit/:id';

    // --- Tokens (auth tab) and the SDK's authentication ---
    app.post(
      '/auth/exhibit',
      { schema: { tags, body: z.object({ name: Name, exhibitId: Id }), response: { 200: TokenSchema.extend({ token: z.string() }) } } },
      async (request) => {
        await authorize(deps, request, request.body.exhibitId, 'createToken');
        return createExhibitToken(deps, request.body.exhibitId, request.body.name);
      },
    );

    app.get(
      '/auth/exhibit/:id',
      { schema: { tags, params: IdParams, response: { 200: z.object({ tokens: z.array(TokenSchema) }) } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'createToken');
        const tokens = await listExhibitTokens(deps, request.params.id);
        return { tokens: tokens.map((t) => ({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString() })) };
      },
    );

    app.delete(
      '/auth/exhibit/delete-token/:id',
      { schema: { tags, params: IdParams, response: { 200: OkSchema } } },
      async (request) => {
        requireUser(request);
        const token = await findExhibitToken(deps, request.params.id);
        if (!token) throw new AppError('NotFound', 'The token does not exist.');
        await authorize(deps, request, token.exhibitId, 'deleteToken');
        await deleteExhibitToken(deps, token.id);
        return ok;
      },
    );

    app.post(
      '/auth/exhibit/authenticate',
      { schema: { tags, body: ExhibitAuthenticateBody, response: { 200: ExhibitCredentialSchema } } },
      async (request) => authenticateExhibit(deps, request.body.exhibitId, request.body.token),
    );

    // --- Manifest, controls, settings ---
    app.get(`${base}/manifest`, { schema: { tags, params: IdParams, response: { 200: ManifestResponseSchema } } }, async (request) => {
      const role = await authorize(deps, request, request.params.id, 'view');
      return getManifest(deps, request.params.id, { canFireControls: can(role, 'fireControl'), canEditSettings: can(role, 'editSettings') });
    });

    app.post(
      `${base}/control/:controlId`,
      { schema: { tags, params: KeyParams('controlId'), querystring: ControlQuery, response: { 200: ControlResultSchema } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'fireControl');
        await fireControl(deps, request.params.id, String(request.params.controlId), request.query.itemId);
        return { delivered: true as const };
      },
    );

    app.post(
      `${base}/setting/:settingId`,
      { schema: { tags, params: KeyParams('settingId'), body: SetSettingBody.extend({ listId: Key.optional() }), response: { 200: OkSchema } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'editSettings');
        const { value, listName, listId } = request.body;
        await saveSetting(deps, request.params.id, String(request.params.settingId), value, { listName, listId });
        return ok;
      },
    );

    app.put(
      `${base}/strapi-content/:settingId`,
      { schema: { tags, params: KeyParams('settingId'), body: StrapiContentBody, response: { 200: OkSchema } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'editSettings');
        await saveStrapiContent(deps, request.params.id, String(request.params.settingId), request.body.contentId);
        return ok;
      },
    );

    app.post(`${base}/opMode`, { schema: { tags, params: IdParams, body: OpModeBody, response: { 200: OkSchema } } }, async (request) => {
      await authorize(deps, request, request.params.id, 'operate');
      await setOpMode(deps, request.params.id, request.body.opMode, 'console');
      return ok;
    });

    app.post(
      `${base}/sync-followers`,
      { schema: { tags, params: IdParams, response: { 200: z.object({ ok: z.literal(true), followers: z.number() }) } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'editSettings');
        const result = await syncFollowers(deps, request.params.id);
        return { ok: true as const, followers: result.followers };
      },
    );

    // --- Setting lists ---
    app.post(
      `${base}/settinglist/:listId`,
      { schema: { tags, params: KeyParams('listId'), body: CreateListItemBody, response: { 200: OkSchema } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'editSettings');
        await createListItem(deps, request.params.id, String(request.params.listId), request.body.listName);
        return ok;
      },
    );

    app.post(
      `${base}/settinglist/:listId/settinglistitem`,
      { schema: { tags, params: KeyParams('listId'), body: CopyListItemBody, response: { 200: OkSchema } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'editSettings');
        const { listName, settingListItem } = request.body;
        await copyListItem(deps, request.params.id, String(request.params.listId), listName, settingListItem);
        return ok;
      },
    );

    app.post(
      `${base}/settinglist/:listId/order`,
      { schema: { tags, params: KeyParams('listId'), body: OrderListBody, response: { 200: OkSchema } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'editSettings');
        await orderListItems(deps, request.params.id, String(request.params.listId), request.body.order);
        return ok;
      },
    );

    app.delete(
      `${base}/settinglist/:listId`,
      { schema: { tags, params: KeyParams('listId'), querystring: DeleteListItemQuery, response: { 200: OkSchema } } },
      async (request) => {
        await authorize(deps, request, request.params.id, 'editSettings');
        await deleteListItem(deps, request.params.id, String(request.params.listId), request.query.listName);
        return ok;
      },
    );

    // --- The caller's effective role on the exhibit ---
    app.get(
      '/exhibit-management/permission/by-exhibit-id/user/:id',
      {
        schema: {
          tags,
          params: IdParams,
          response: {
            200: z.object({
              exhibitUser: z.object({ exhibitId: Id, userId: Id, email: z.string(), role: UpperRoleSchema }),
            }),
          },
        },
      },
      async (request) => {
        const user = requireUser(request);
        const role = await authorize(deps, request, request.params.id, 'view');
        return { exhibitUser: { exhibitId: request.params.id, userId: user.id, email: user.email, role } };
      },
    );
  };
}
