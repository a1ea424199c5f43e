import type { z } from 'zod';
import {
  AnalyticsConfigSchema,
  ContentManagerConfigInputSchema,
  isAllowedReportUrl,
  type SettingKind,
} from '@plinth/shared';
import { AppError } from '../../lib/app-error.js';

/**
 * Checks a new setting value against its kind and answers the value to store: the JSON configs
 * are stored normalised (every field present), other values as given. Throws a 400 naming the
 * problem. The content-manager config's passwords come out as given (left out, '', null or a new
 * one): content-manager-config.service.ts seals them before storage.
 */
export function validateSettingValue(kind: SettingKind, value: string, reportUrlPrefix: string): string {
  switch (kind) {
    case 'contentManager': {
      if (value === '') return value;
      const config = parseJsonConfig(value, ContentManagerConfigInputSchema, 'content manager');
      if (config.url !== '' && !isHttpUrl(config.url)) {
        throw invalid('value.url: the content manager URL must be an http or https URL');
      }
      return JSON.stringify({ ...config, url: config.url.replace(/\/+$/, '') });
    }
    case 'analytics':
      if (value === '') return value;
      return JSON.stringify(parseJsonConfig(value, AnalyticsConfigSchema, 'analytics'));
    case 'reportUrl':
      if (value !== '' && !isAllowedReportUrl(value, reportUrlPrefix)) {
        throw invalid(`The site report URL must start with ${reportUrlPrefix}`);
      }
      return value;
    case 'text':
      return value;
  }
}

function parseJsonConfig<T extends z.ZodType>(value: string, schema: T, what: string): z.infer<T> {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw invalid(`value: the ${what} config must be JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `value${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`)
      .join('; ');
    throw invalid(problems);
  }
  return parsed.data;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function invalid(message: string): AppError {
  return new AppError('ValidationError', message);
}

/** Rows ordered as their definitions are listed; rows without a definition follow by id string. */
export function sortByDefinition<T extends { idString: string }>(rows: T[], order: string[]): T[] {
  const rank = (idString: string) => {
    const index = order.indexOf(idString);
    return index === -1 ? order.length : index;
  };
  return [...rows].sort((a, b) => rank(a.idString) - rank(b.idString) || a.idString.localeCompare(b.idString));
}
