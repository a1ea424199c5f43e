import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CopyListItemBody, CreateListItemBody, DeleteListItemQuery, OkSchema, OrderListBody, SettingListParams } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { auditContext } from '../audit/audit-context.js';
import { authorizeExhibitItems } from '../access/item-access.js';
import { copyListItem, createListItem, deleteListItem, orderListItems } from './exhibit-settings.service.js';

/** The items of an exhibit's setting lists: create, copy, order, delete (DEVELOPER and up, where the list is read_write for them). */
export function exhibitSettingListRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['exhibit runtime'];
    const path = '/exhibit-management/exhibit/:id/settinglist/:listId';
    const ok = { ok: true as const };
    const schema = { tags, params: SettingListParams, response: { 200: OkSchema } };

    app.post(path, { schema: { ...schema, body: CreateListItemBody } }, async (request) => {
      const { id, listId } = request.params;
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: id, right: 'editSettings' });
      await createListItem(deps, id, { listId, listName: request.body.listName, access, audit: auditContext(request) });
      return ok;
    });

    app.post(`${path}/settinglistitem`, { schema: { ...schema, body: CopyListItemBody } }, async (request) => {
      const { id, listId } = request.params;
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: id, right: 'editSettings' });
      await copyListItem(deps, id, { listId, listName: request.body.listName, sourceName: request.body.settingListItem, access, audit: auditContext(request) });
      return ok;
    });

    app.post(`${path}/order`, { schema: { ...schema, body: OrderListBody } }, async (request) => {
      const { id, listId } = request.params;
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: id, right: 'editSettings' });
      await orderListItems(deps, id, { listId, order: request.body.order, access, audit: auditContext(request) });
      return ok;
    });

    app.delete(path, { schema: { ...schema, querystring: DeleteListItemQuery } }, async (request) => {
      const { id, listId } = request.params;
      const access = await authorizeExhibitItems(deps.db, await request.grants(), { exhibitId: id, right: 'editSettings' });
      await deleteListItem(deps, id, { listId, listName: request.query.listName, access, audit: auditContext(request) });
      return ok;
    });
  };
}
