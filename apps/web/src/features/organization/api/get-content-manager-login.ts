import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /org-management/organization/setting/strapi/login: a one-time login token for the content manager. */
export const getContentManagerLogin = (organizationId: string) =>
  api.post<{ user: unknown; token: string }>('/org-management/organization/setting/strapi/login', {}, { organizationId });

/** Asks for a content-manager login each time the content is opened (the token is single use); nothing cached changes. */
export function useContentManagerLogin() {
  return useMutation({ mutationFn: getContentManagerLogin });
}
