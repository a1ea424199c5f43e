import { Alert, Badge, Button, Divider, Group, Loader, Modal, Paper, PasswordInput, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  AnalyticsConfigSchema,
  CONTENT_MANAGER_SECRET_FIELDS,
  ContentManagerConfigSchema,
  ContentManagerConfigViewSchema,
  SETTINGS_SAVED_BANNER_MS,
  type AnalyticsConfig,
  type ContentManagerConfig,
  type ContentManagerSecretField,
  type Setting,
} from '@plinth/shared';
import type { SaveSettingsResult, SettingChange } from '../lib/api/save-settings';
import { errorText } from '../lib/mutation-state';
import { settingSaveError, type SettingSaveError } from '../lib/setting-save-error';
import { GuardedButton } from './GuardedButton';

/** The owner's save mutation (`useSaveSettings`): sends every change, answers each one's outcome, refreshes the settings. */
export type SaveSettingsMutation = Pick<UseMutationResult<SaveSettingsResult, Error, SettingChange[]>, 'mutateAsync' | 'isPending'>;

export const SETTINGS_SAVED_TEXT = 'Settings saved.';
export const SETTINGS_ERROR_TEXT = 'There were errors in saving the settings.';
export const INHERITED_SETTING_TEXT = 'This field may only be modified at the organization level.';

export type SettingsFormProps = {
  settings: Setting[];
  /** The caller's role may edit settings here; otherwise every input is disabled. */
  canEdit: boolean;
  /** Settings shown read-only because they belong to a higher level (site screen: organization settings). */
  isInherited?: (setting: Setting) => boolean;
  /** Save sends every changed setting through it at once. */
  save: SaveSettingsMutation;
  /** Gets the address of the content-manager frame; shows 'View Organizational Content' when given. */
  getContentUrl?: () => Promise<string>;
  /** What a report URL must start with (the server's REPORT_URL_PREFIX, from GET /config), shown as the field's hint. */
  reportUrlPrefix?: string;
  /** Told whether an editable setting differs from its saved value (the screen asks before leaving then). */
  onDirtyChange?: (dirty: boolean) => void;
};

type Structured = ContentManagerConfig | AnalyticsConfig;

/** Parses a JSON setting value with its schema; an empty or broken value reads as all defaults. */
function parseConfig<T extends Structured>(raw: string, schema: { parse: (v: unknown) => T }): T {
  let data: unknown = {};
  try {
    data = raw ? JSON.parse(raw) : {};
  } catch {
    data = {};
  }
  try {
    return schema.parse(data && typeof data === 'object' ? data : {});
  } catch {
    return schema.parse({});
  }
}

/**
 * The content-manager config as the form holds it: the passwords are only what the user types
 * (empty keeps the stored one), never anything the server sent.
 */
function contentManagerForm(raw: string): ContentManagerConfig {
  const config = parseConfig(raw, ContentManagerConfigSchema);
  return { ...config, adminPassword: '', editorPassword: '', apiPassword: '' };
}

/** The value as the form holds it: structured settings as canonical JSON, so unchanged reads as unchanged. */
function normalize(setting: Setting, raw: string): string {
  if (setting.kind === 'contentManager') return JSON.stringify(contentManagerForm(raw));
  if (setting.kind === 'analytics') return JSON.stringify(parseConfig(raw, AnalyticsConfigSchema));
  return raw;
}

function baselineOf(settings: Setting[]): Record<string, string> {
  return Object.fromEntries(settings.map((s) => [s.idString, normalize(s, s.value)]));
}

/** Only http(s) addresses may be framed (an admin-entered `javascript:` address must never run). */
function isFramable(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

const CONTENT_MANAGER_FIELDS: { key: keyof ContentManagerConfig; label: string }[] = [
  { key: 'url', label: 'URL' },
  { key: 'adminUser', label: 'Admin User' },
  { key: 'adminPassword', label: 'Admin Password' },
  { key: 'editorUser', label: 'Editor User' },
  { key: 'editorPassword', label: 'Editor Password' },
  { key: 'apiUser', label: 'API User' },
  { key: 'apiPassword', label: 'API Password' },
];

const SET_FLAG = {
  adminPassword: 'adminPasswordSet',
  editorPassword: 'editorPasswordSet',
  apiPassword: 'apiPasswordSet',
} as const satisfies Record<ContentManagerSecretField, string>;

function isSecretField(key: keyof ContentManagerConfig): key is ContentManagerSecretField {
  return (CONTENT_MANAGER_SECRET_FIELDS as readonly string[]).includes(key);
}

/** The URL as the server compares it (trailing slashes do not count). */
function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

const ANALYTICS_FIELDS: { key: keyof AnalyticsConfig; label: string; description?: string }[] = [
  { key: 'url', label: 'URL' },
  { key: 'suiteId', label: 'Suite ID' },
  { key: 'exhibitIds', label: 'Exhibit IDs', description: 'Comma separated' },
];

/** A setting's name, marked when its value differs from the saved one. */
function SettingLabel({ setting, modified }: { setting: Setting; modified: boolean }) {
  return (
    <Group gap={6} component="span">
      <span>{setting.display}</span>
      <ModifiedMarker show={modified} />
    </Group>
  );
}

function ModifiedMarker({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <Badge size="xs" color="orange" variant="light">
      Modified
    </Badge>
  );
}

/**
 * The settings tab of the organization and site screens: one input per setting (structured
 * editors for the content-manager and analytics configs), a 'Modified' marker per changed field,
 * and Save, which sends every changed setting at once and reports 'Settings saved.' for 3 seconds
 * or the error text.
 */
export function SettingsForm({ settings, canEdit, isInherited, save, getContentUrl, reportUrlPrefix, onDirtyChange }: SettingsFormProps) {
  // The form's initial values are the saved values (the baseline a field is Modified against).
  const form = useForm<Record<string, string>>({ initialValues: baselineOf(settings) });
  const values = form.values;
  const baseline = form.getInitialValues();
  const [banner, setBanner] = useState<'saved' | 'error' | null>(null);
  // The server's reason for each setting it refused at the last Save, until that field is edited.
  const [fieldErrors, setFieldErrors] = useState<Record<string, SettingSaveError>>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // New saved values (a refetch, a save elsewhere) become the baseline; edits in progress stay.
  const settingsKey = settings.map((s) => `${s.idString}=${s.value}`).join('\u0000');
  useEffect(() => {
    const next = baselineOf(settings);
    const previous = form.getInitialValues();
    const merged: Record<string, string> = { ...next };
    for (const [id, value] of Object.entries(form.getValues())) {
      if (id in next && value !== previous[id]) merged[id] = value;
    }
    form.setInitialValues(next);
    form.setValues(merged);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- settingsKey stands for the settings' values
  }, [settingsKey]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const editable = (s: Setting) => canEdit && !isInherited?.(s);
  const changed = useMemo(
    () => settings.filter((s) => editable(s) && values[s.idString] !== baseline[s.idString]),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- editable depends only on canEdit and isInherited
    [settings, values, baseline, canEdit, isInherited],
  );

  const dirty = changed.length > 0;
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  // Leaving the form (another tab) leaves nothing unsaved behind it.
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);

  // Keys are setting ids, not paths: set them whole (an id with a dot must not become a nested field).
  const setValue = (idString: string, value: string) => {
    form.setValues((v) => ({ ...v, [idString]: value }));
    setFieldErrors(({ [idString]: _edited, ...rest }) => rest);
  };

  const handleSave = async () => {
    if (changed.length === 0) return;
    clearTimeout(timer.current);
    setBanner(null);
    const results = await save.mutateAsync(changed.map((s) => ({ idString: s.idString, value: values[s.idString] ?? '' })));
    const saved = changed.filter((_, i) => results[i]?.status === 'fulfilled');
    setFieldErrors(
      Object.fromEntries(
        changed.flatMap((s, i) => {
          const result = results[i];
          return result?.status === 'rejected' ? [[s.idString, settingSaveError(result.reason)]] : [];
        }),
      ),
    );
    form.setInitialValues({ ...form.getInitialValues(), ...Object.fromEntries(saved.map((s) => [s.idString, values[s.idString] ?? ''])) });
    if (saved.length === changed.length) {
      setBanner('saved');
      timer.current = setTimeout(() => setBanner(null), SETTINGS_SAVED_BANNER_MS);
    } else {
      for (const r of results) if (r.status === 'rejected') console.error('Setting save failed', r.reason);
      setBanner('error');
    }
  };

  return (
    <Stack gap="md">
      {settings.map((setting) => {
        const value = values[setting.idString] ?? '';
        const modified = value !== baseline[setting.idString];
        const disabled = !editable(setting);
        const inherited = isInherited?.(setting) ?? false;
        const error = fieldErrors[setting.idString];
        const common = { setting, value, modified, disabled, inherited, error, onChange: (v: string) => setValue(setting.idString, v) };
        if (setting.kind === 'contentManager') {
          return <ContentManagerEditor key={setting.idString} {...common} getContentUrl={getContentUrl} savedValue={baseline[setting.idString] ?? ''} />;
        }
        if (setting.kind === 'analytics') return <AnalyticsEditor key={setting.idString} {...common} />;
        if (setting.kind === 'timeZone') return <TimeZoneEditor key={setting.idString} {...common} />;
        if (setting.kind === 'switch') return <SwitchEditor key={setting.idString} {...common} />;
        return (
          <TextInput
            key={setting.idString}
            label={<SettingLabel setting={setting} modified={modified} />}
            description={inherited ? INHERITED_SETTING_TEXT : setting.kind === 'reportUrl' && reportUrlPrefix ? `Must start with ${reportUrlPrefix}` : undefined}
            placeholder={setting.kind === 'reportUrl' && reportUrlPrefix ? reportUrlPrefix : undefined}
            value={value}
            onChange={(e) => setValue(setting.idString, e.currentTarget.value)}
            disabled={disabled}
            error={error?.text}
          />
        );
      })}
      {banner === 'saved' && (
        <Alert color="green" role="status">
          {SETTINGS_SAVED_TEXT}
        </Alert>
      )}
      {banner === 'error' && (
        <Alert color="red" role="alert">
          {SETTINGS_ERROR_TEXT}
        </Alert>
      )}
      {canEdit && (
        <Group justify="flex-end">
          <GuardedButton onClick={() => void handleSave()} disabled={changed.length === 0} loading={save.isPending}>
            Save
          </GuardedButton>
        </Group>
      )}
    </Stack>
  );
}

type EditorProps = {
  setting: Setting;
  value: string;
  modified: boolean;
  disabled: boolean;
  inherited: boolean;
  /** The server's reason the last Save refused this setting. */
  error?: SettingSaveError;
  onChange: (value: string) => void;
};

/** The server's reason when it is about the whole value, or about a part `keys` has no input for. */
function wholeValueError(error: SettingSaveError | undefined, keys: string[]): string | null {
  if (!error) return null;
  return error.field !== null && keys.includes(error.field) ? null : error.text;
}

/** The server's reason when it is about the part `key`. */
const partError = (error: SettingSaveError | undefined, key: string) => (error?.field === key ? error.text : undefined);

function EditorFrame({ setting, modified, inherited, frameError, children }: EditorProps & { frameError: string | null; children: ReactNode }) {
  return (
    <Paper withBorder p="md" role="group" aria-label={setting.display}>
      <Stack gap="xs">
        <Group gap={6}>
          <Title order={5}>{setting.display}</Title>
          <ModifiedMarker show={modified} />
        </Group>
        {inherited && (
          <Text size="sm" c="dimmed">
            {INHERITED_SETTING_TEXT}
          </Text>
        )}
        {children}
        {frameError && (
          <Text size="sm" c="red">
            {frameError}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The Select's value of 'empty: the server's zone' (an option's value cannot be empty). */
const SERVER_ZONE = '__server__';

/** The IANA zones this browser knows, with 'UTC', and the stored one even if unknown here. */
function timeZoneOptions(current: string): { value: string; label: string }[] {
  const zones = new Set(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []);
  zones.add('UTC');
  if (current) zones.add(current);
  return [{ value: SERVER_ZONE, label: 'Server default' }, ...[...zones].sort().map((z) => ({ value: z, label: z }))];
}

/** A site's time zone (schedules recur in it, the calendar shows it): a searchable IANA zone, or the server's. */
function TimeZoneEditor({ setting, value, modified, disabled, inherited, error, onChange }: EditorProps) {
  const options = useMemo(() => timeZoneOptions(value), [value]);
  return (
    <Select
      label={<SettingLabel setting={setting} modified={modified} />}
      description={inherited ? INHERITED_SETTING_TEXT : 'Scheduled events recur in this zone and the calendar shows it.'}
      data={options}
      value={value || SERVER_ZONE}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No time zone matches"
      disabled={disabled}
      error={error?.text}
      onChange={(v) => onChange(v === null || v === SERVER_ZONE ? '' : v)}
    />
  );
}

/** An on/off setting, stored as 'true' or 'false'. */
function SwitchEditor({ setting, value, modified, disabled, error, onChange }: EditorProps) {
  return (
    <Switch
      label={<SettingLabel setting={setting} modified={modified} />}
      checked={value === 'true'}
      disabled={disabled}
      error={error?.text}
      onChange={(e) => onChange(e.currentTarget.checked ? 'true' : 'false')}
    />
  );
}

function AnalyticsEditor(props: EditorProps) {
  const config = parseConfig(props.value, AnalyticsConfigSchema);
  const update = (key: keyof AnalyticsConfig, v: string) => props.onChange(JSON.stringify({ ...config, [key]: v }));
  return (
    <EditorFrame {...props} frameError={wholeValueError(props.error, ANALYTICS_FIELDS.map((f) => f.key))}>
      {ANALYTICS_FIELDS.map((f) => (
        <TextInput
          key={f.key}
          label={f.label}
          description={f.description}
          value={config[f.key]}
          onChange={(e) => update(f.key, e.currentTarget.value)}
          disabled={props.disabled}
          error={partError(props.error, f.key)}
        />
      ))}
    </EditorFrame>
  );
}

/**
 * The content-manager config. Passwords are write-only: a stored one shows as set (an empty,
 * disabled input) with a Replace action; empty keeps it. A new URL asks for every stored password
 * again, as the server only sends stored passwords to the URL they were saved for.
 */
function ContentManagerEditor(props: EditorProps & { getContentUrl?: () => Promise<string>; savedValue: string }) {
  const config = contentManagerForm(props.value);
  const saved = parseConfig(props.savedValue, ContentManagerConfigSchema);
  const stored = parseConfig(props.setting.value, ContentManagerConfigViewSchema);
  const [replacing, setReplacing] = useState<ContentManagerSecretField[]>([]);
  // After a save the stored state is new: every password shows as set (or not) again.
  useEffect(() => setReplacing([]), [props.savedValue]);
  const isUrlChanged = !sameUrl(config.url, stored.url);
  const isSet = (field: ContentManagerSecretField) => stored[SET_FLAG[field]];
  const isOpen = (field: ContentManagerSecretField) => !isSet(field) || isUrlChanged || replacing.includes(field);

  const update = (key: keyof ContentManagerConfig, v: string) => {
    const next = { ...config, [key]: v };
    // Back on the stored URL, passwords typed only because it changed are dropped with it.
    if (key === 'url' && sameUrl(v, stored.url)) {
      for (const field of CONTENT_MANAGER_SECRET_FIELDS) if (isSet(field) && !replacing.includes(field)) next[field] = '';
    }
    props.onChange(JSON.stringify(next));
  };
  const handleReplace = (field: ContentManagerSecretField) => setReplacing((r) => [...r, field]);
  const handleKeep = (field: ContentManagerSecretField) => {
    setReplacing((r) => r.filter((f) => f !== field));
    update(field, '');
  };

  const renderSecret = (field: ContentManagerSecretField, label: string) => {
    const open = isOpen(field);
    const hasAction = isSet(field) && !isUrlChanged && !props.disabled;
    let description: string | undefined;
    if (isSet(field) && isUrlChanged) description = 'The URL changed: enter this password again. Stored passwords only go to the URL they were saved for.';
    else if (isSet(field) && open) description = 'Leave empty to keep the stored password.';
    return (
      <Group key={field} align="flex-end" gap="xs" wrap="nowrap">
        <PasswordInput
          style={{ flex: 1 }}
          label={label}
          description={description}
          placeholder={open ? (isSet(field) ? 'New password' : 'Not set') : 'Set (hidden)'}
          value={open ? config[field] : ''}
          onChange={(e) => update(field, e.currentTarget.value)}
          disabled={props.disabled || !open}
          autoComplete="new-password"
          error={partError(props.error, field)}
        />
        {hasAction &&
          (open ? (
            <Button variant="default" aria-label={`Keep the stored ${label}`} onClick={() => handleKeep(field)}>
              Keep
            </Button>
          ) : (
            <Button variant="default" aria-label={`Replace ${label}`} onClick={() => handleReplace(field)}>
              Replace
            </Button>
          ))}
      </Group>
    );
  };
  const [frame, setFrame] = useState<{ url: string | null; error: string | null; loading: boolean } | null>(null);

  const handleView = () => {
    if (!props.getContentUrl) return;
    setFrame({ url: null, error: null, loading: true });
    props
      .getContentUrl()
      .then((url) =>
        isFramable(url)
          ? setFrame({ url, error: null, loading: false })
          : setFrame({ url: null, error: 'The content manager URL must start with http:// or https://.', loading: false }),
      )
      .catch((e: unknown) =>
        setFrame({ url: null, error: errorText(e, 'Organizational Content is unavailable now'), loading: false }),
      );
  };

  return (
    <EditorFrame {...props} frameError={wholeValueError(props.error, CONTENT_MANAGER_FIELDS.map((f) => f.key))}>
      {CONTENT_MANAGER_FIELDS.map((f) =>
        isSecretField(f.key) ? (
          renderSecret(f.key, f.label)
        ) : (
          <TextInput
            key={f.key}
            label={f.label}
            value={config[f.key]}
            onChange={(e) => update(f.key, e.currentTarget.value)}
            disabled={props.disabled}
            error={partError(props.error, f.key)}
          />
        ),
      )}
      {props.getContentUrl && (
        <>
          <Divider />
          <Group>
            <Button variant="light" onClick={handleView} disabled={!saved.url}>
              View Organizational Content
            </Button>
          </Group>
        </>
      )}
      <Modal opened={frame !== null} onClose={() => setFrame(null)} title="Organizational Content" size="90%" centered>
        {frame?.loading && <Loader aria-label="Loading content" />}
        {frame?.error && (
          <Alert color="red" role="alert">
            {frame.error}
          </Alert>
        )}
        {frame?.url && (
          <iframe
            title="Organizational Content"
            src={frame.url}
            style={{ width: '100%', height: '75vh', border: 0 }}
            sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-downloads"
            referrerPolicy="no-referrer"
          />
        )}
      </Modal>
    </EditorFrame>
  );
}
