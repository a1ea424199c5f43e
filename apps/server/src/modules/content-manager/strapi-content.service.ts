import pluralize from 'pluralize';
import { z } from 'zod';
import type { ManifestSetting, StrapiContentList } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { authorizeExhibit } from '../access/exhibit-access.js';
import type { Grants } from '../access/grants.js';
import { findExhibitRefs } from '../access/refs.repository.js';
import { listSettingCandidates } from '../exhibit-runtime/exhibit-settings.repository.js';
import { ContentManagerError, strapiGetJson } from './content-manager.client.js';
import { presentStrapiContentList, type ContentEntry } from './content-manager.presenter.js';
import { strapiFailure, withStrapi } from './strapi-connection.service.js';

/**
 * StrapiContent settings (spec 2.4): the entries of the setting's content type, read from the
 * organization's content manager (Strapi v4 or v5 REST API) on behalf of the console, and the
 * chosen entry read again when it is saved, so the exhibit receives its fields.
 */

/** Entries per page, sorted by id ascending (spec: content-manager listing page size 10). */
export const STRAPI_PAGE_SIZE = 10;

/** A content type's API id as Strapi names them (kebab-case, letters, digits, '-' and '_'). */
const CONTENT_TYPE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** An entry id: v4 numbers, v5 document ids. */
const CONTENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * The REST collection of a content type: its API id pluralised as Strapi's admin pluralises a
 * new content type's name (the `pluralize` package: article -> articles, category -> categories,
 * person -> people; a name already plural stays as it is). A content type whose plural name was
 * changed by hand in Strapi must be named by that plural in the manifest.
 */
export function strapiCollectionName(contentType: string): string {
  return pluralize(contentType);
}

const RawEntry = z.object({ id: z.union([z.number(), z.string()]) }).catchall(z.unknown());
type RawEntry = z.infer<typeof RawEntry>;
const Pagination = z.object({ page: z.number(), pageSize: z.number(), pageCount: z.number(), total: z.number() });
const ListAnswer = z.object({
  data: z.array(RawEntry),
  meta: z.object({ pagination: Pagination.partial().optional() }).partial().nullish(),
});
const OneAnswer = z.object({ data: RawEntry });

/** An entry with its fields at the top level: v4's `{id, attributes: {...}}` flattened, v5's kept as it is. */
export function flattenEntry(raw: RawEntry): ContentEntry {
  const { attributes, ...rest } = raw;
  if (attributes && typeof attributes === 'object' && !Array.isArray(attributes)) {
    return { ...(attributes as Record<string, unknown>), ...rest, id: raw.id };
  }
  return raw;
}

/** The setting's content type and display field; NotFound when the exhibit has no such setting, 400 when it is of another type. */
async function findStrapiSetting(deps: AppDeps, exhibitId: string, settingId: string): Promise<{ contentType: string; displayFieldName: string }> {
  const plain = await listSettingCandidates(deps.db, exhibitId, { settingKey: settingId, inList: false });
  const candidates = plain.length ? plain : await listSettingCandidates(deps.db, exhibitId, { settingKey: settingId, inList: true });
  const setting = candidates[0];
  if (!setting) throw new AppError('NotFound', `The setting "${settingId}" does not exist.`);
  const definition = setting.definition as ManifestSetting;
  if (definition.type !== 'StrapiContent') {
    throw new AppError('ValidationError', `Setting "${setting.manifestId}" is not a StrapiContent setting`);
  }
  return { contentType: definition.contentType, displayFieldName: definition.displayFieldName };
}

async function organizationOf(deps: AppDeps, exhibitId: string): Promise<string> {
  const [ref] = await findExhibitRefs(deps.db, [exhibitId]);
  if (!ref) throw new AppError('NotFound', 'The exhibit does not exist.');
  return ref.organizationId;
}

/** The collection's URL path; a content type Strapi could not have is an options failure. */
function collectionPath(organizationId: string, contentType: string): string {
  if (!CONTENT_TYPE_NAME.test(contentType)) {
    throw strapiFailure({ reason: 'options', organizationId, contentType, cause: `"${contentType}" is not a content type name.` });
  }
  return `/api/${encodeURIComponent(strapiCollectionName(contentType))}`;
}

/** A failed read of the content manager as the spec's options message; other errors pass. */
function asOptionsFailure(error: unknown, where: { organizationId: string; contentType: string }): unknown {
  if (error instanceof ContentManagerError) return strapiFailure({ reason: 'options', ...where, cause: error.message });
  return error;
}

export type StrapiContentQuery = { exhibitId: string; settingId: string; page: number };

/**
 * GET .../strapi/content: one page of the entries a StrapiContent setting offers. The caller
 * needs `view` on the exhibit; the content manager is read with the organization's API user.
 */
export async function listStrapiContent(deps: AppDeps, grants: Grants, query: StrapiContentQuery): Promise<StrapiContentList> {
  await authorizeExhibit(deps.db, grants, { exhibitId: query.exhibitId, right: 'view' });
  const organizationId = await organizationOf(deps, query.exhibitId);
  const { contentType, displayFieldName } = await findStrapiSetting(deps, query.exhibitId, query.settingId);
  const path = collectionPath(organizationId, contentType);
  const search = `pagination[page]=${query.page}&pagination[pageSize]=${STRAPI_PAGE_SIZE}&sort=id:asc`;
  try {
    const answer = await withStrapi(deps, organizationId, (c) => strapiGetJson(deps.outbound, { url: `${c.url}${path}?${search}`, jwt: c.jwt }, ListAnswer));
    const pagination = answer.meta?.pagination ?? {};
    const seen = (query.page - 1) * STRAPI_PAGE_SIZE + answer.data.length;
    const total = pagination.total ?? seen;
    return presentStrapiContentList(answer.data.map(flattenEntry), {
      displayFieldName,
      page: pagination.page ?? query.page,
      pageCount: pagination.pageCount ?? Math.ceil(total / STRAPI_PAGE_SIZE),
      total,
    });
  } catch (error) {
    throw asOptionsFailure(error, { organizationId, contentType });
  }
}

/**
 * The entry `contentId` of a StrapiContent setting's content type, read now from the exhibit's
 * organization's content manager (id and fields). NotFound when the content manager has no such
 * entry; the spec's messages when it cannot be read.
 */
export async function getStrapiEntry(
  deps: AppDeps,
  read: { exhibitId: string; contentType: string; contentId: string },
): Promise<ContentEntry> {
  const { contentType, contentId } = read;
  const organizationId = await organizationOf(deps, read.exhibitId);
  if (!CONTENT_ID.test(contentId)) throw new AppError('ValidationError', `contentId: "${contentId}" is not a content entry id`);
  const path = `${collectionPath(organizationId, contentType)}/${encodeURIComponent(contentId)}`;
  try {
    const answer = await withStrapi(deps, organizationId, (c) => strapiGetJson(deps.outbound, { url: `${c.url}${path}`, jwt: c.jwt }, OneAnswer));
    return flattenEntry(answer.data);
  } catch (error) {
    if (error instanceof ContentManagerError && error.upstreamStatus === 404) {
      throw new AppError('NotFound', `The content manager has no ${contentType} entry with the id ${contentId}.`);
    }
    throw asOptionsFailure(error, { organizationId, contentType });
  }
}
