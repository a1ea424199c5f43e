import { ContentManagerConfigViewSchema, SETTING_IDS } from '@plinth/shared';

/**
 * The organization's content-manager address from its settings (the caller may not read them:
 * then there are none), or null when none is set. Only an http(s) address counts: it becomes a link.
 */
export function contentManagerUrl(settings: { idString: string; value: string }[] | undefined): string | null {
  const raw = settings?.find((s) => s.idString === SETTING_IDS.contentManager)?.value;
  if (!raw) return null;
  let url: string;
  try {
    url = ContentManagerConfigViewSchema.parse(JSON.parse(raw)).url.trim();
  } catch {
    return null;
  }
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    new URL(url);
  } catch {
    return null;
  }
  return url.replace(/\/+$/, '');
}

/** The content manager's media library, where organizational ('[ORG]') files live (Strapi's upload plugin). */
export const mediaLibraryUrl = (contentManager: string) => `${contentManager}/admin/plugins/upload`;
