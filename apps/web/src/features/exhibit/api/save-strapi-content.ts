import { api } from '../../../lib/api-client';

export type SaveStrapiContentInput = { exhibitId: string; settingId: string; contentId: string | null };

/** PUT /exhibit-management/exhibit/{id}/strapi-content/{settingId}: the content chosen for a StrapiContent setting. */
export const saveStrapiContent = ({ exhibitId, settingId, contentId }: SaveStrapiContentInput) =>
  api.put<{ ok: true }>(`/exhibit-management/exhibit/${exhibitId}/strapi-content/${encodeURIComponent(settingId)}`, { contentId });
