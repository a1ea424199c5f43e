import type { Logger } from 'pino';
import {
  CONTENT_MANAGER_SECRET_FIELDS,
  ContentManagerConfigInputSchema,
  ContentManagerConfigSchema,
  SETTING_IDS,
  type ContentManagerConfig,
  type ContentManagerConfigView,
  type ContentManagerSecretField,
} from '@plinth/shared';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { isSealed, SecretBoxError, type SecretBox } from '../../lib/secret-box.js';
import { listSettingRowsOfEveryOrganization, replaceOrganizationSettingValue } from '../settings/settings.repository.js';

/*
 * The content-manager config is stored as JSON text in the organization setting
 * `content_manager_config`, its passwords sealed (`enc:v1:…`, lib/secret-box.ts). Answers show
 * whether each password is set, never the password; only the content-manager client calls see it.
 */

/** Authenticated with each sealed password, so it opens only as this organization's field. */
function secretContext(organizationId: string, field: ContentManagerSecretField): string {
  return `${SETTING_IDS.contentManager}:${organizationId}:${field}`;
}

/** The stored JSON (passwords as stored); null when empty or unreadable. */
function parseStored(value: string): ContentManagerConfig | null {
  if (!value) return null;
  try {
    const parsed = ContentManagerConfigSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A save of an organization's content-manager config. */
export type ContentManagerConfigSave = {
  organizationId: string;
  /** The value settings.service validated (input JSON with the URL normalised). */
  checked: string;
  /** The value stored now (passwords sealed). */
  stored: string;
};

/**
 * The value to store for a save. A password left out or '' keeps the stored one, null removes it,
 * a new one is sealed. When the URL changes, every stored password must be given again (or null),
 * so an organization manager cannot send passwords someone else saved to an address of their
 * choosing.
 */
export function sealContentManagerConfig(secrets: SecretBox, { organizationId, checked, stored }: ContentManagerConfigSave): string {
  if (checked === '') return '';
  const input = ContentManagerConfigInputSchema.parse(JSON.parse(checked));
  const previous = parseStored(stored) ?? ContentManagerConfigSchema.parse({});
  const isMoved = previous.url !== input.url;
  const seal = (field: ContentManagerSecretField): string => {
    const given = input[field];
    if (given === null) return '';
    if (given) return secrets.seal(given, secretContext(organizationId, field));
    const kept = previous[field];
    if (kept && isMoved) {
      throw new AppError(
        'ValidationError',
        `value.${field}: enter this password again (or null to remove it): the content manager URL changed, and stored passwords only go to the URL they were saved for`,
      );
    }
    return kept && !isSealed(kept) ? secrets.seal(kept, secretContext(organizationId, field)) : kept;
  };
  const next: ContentManagerConfig = {
    url: input.url,
    adminUser: input.adminUser,
    adminPassword: seal('adminPassword'),
    editorUser: input.editorUser,
    editorPassword: seal('editorPassword'),
    apiUser: input.apiUser,
    apiPassword: seal('apiPassword'),
  };
  return JSON.stringify(next);
}

/** The stored value as answers show it: passwords '' and whether each is set ('' for an empty or unreadable value). */
export function contentManagerConfigView(stored: string): string {
  const config = parseStored(stored);
  if (!config) return '';
  const view: ContentManagerConfigView = {
    url: config.url,
    adminUser: config.adminUser,
    adminPassword: '',
    adminPasswordSet: config.adminPassword !== '',
    editorUser: config.editorUser,
    editorPassword: '',
    editorPasswordSet: config.editorPassword !== '',
    apiUser: config.apiUser,
    apiPassword: '',
    apiPasswordSet: config.apiPassword !== '',
  };
  return JSON.stringify(view);
}

/**
 * The config with its passwords opened, for the content-manager client calls only. A password
 * stored in clear by an older version is used as it is. Null when nothing is configured.
 */
export function openContentManagerConfig(secrets: SecretBox, organizationId: string, stored: string): ContentManagerConfig | null {
  const config = parseStored(stored);
  if (!config) return null;
  const opened = { ...config };
  for (const field of CONTENT_MANAGER_SECRET_FIELDS) {
    const value = config[field];
    if (!isSealed(value)) continue;
    try {
      opened[field] = secrets.open(value, secretContext(organizationId, field));
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new AppError(
        'ServiceUnavailable',
        'The stored content-manager passwords cannot be read with this server\'s SECRET_KEY: give every Plinth instance the key they were saved with, or enter the passwords again.',
      );
    }
  }
  return opened;
}

/**
 * Start-up upkeep: seals content-manager passwords an older version stored in clear. Each row is
 * replaced only if unchanged since it was read, so instances starting together do not clash.
 */
export async function encryptClearContentManagerSecrets(deps: { db: Db; secrets: SecretBox; logger: Logger }): Promise<void> {
  const rows = await listSettingRowsOfEveryOrganization(deps.db, SETTING_IDS.contentManager);
  let count = 0;
  for (const row of rows) {
    const config = parseStored(row.value);
    if (!config || CONTENT_MANAGER_SECRET_FIELDS.every((field) => !config[field] || isSealed(config[field]))) continue;
    // Every password left out: each is kept, and sealed on the way when it is in clear.
    const users = { url: config.url, adminUser: config.adminUser, editorUser: config.editorUser, apiUser: config.apiUser };
    const sealed = sealContentManagerConfig(deps.secrets, { organizationId: row.organizationId, checked: JSON.stringify(users), stored: row.value });
    if (await replaceOrganizationSettingValue(deps.db, { id: row.id, expected: row.value, value: sealed })) count += 1;
  }
  if (count > 0) deps.logger.info(`Encrypted the content-manager passwords of ${count} organization(s), stored in clear by an earlier version.`);
}
