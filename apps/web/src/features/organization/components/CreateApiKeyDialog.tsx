import { MultiSelect, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { ROLE_OPTIONS, type CreateApiKeyInput, type LowerRole, type SiteSummary } from '@plinth/shared';
import { FormDialog, type DialogProps } from '../../../components/dialogs/FormDialog';
import { parsePickerValue } from '../../../lib/date-range';
import { DATE_FORMATS } from '../../../lib/format-date';
import type { MutationState } from '../../../lib/mutation-state';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The expiry choices: never, a number of days from now, or a date picked. */
const EXPIRY_OPTIONS = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: 'date', label: 'On a date…' },
];

type ApiKeyValues = { name: string; role: LowerRole; scope: 'organization' | 'sites'; siteIds: string[]; expiry: string; expiresOn: Date | null };

const INITIAL: ApiKeyValues = { name: '', role: 'viewer', scope: 'organization', siteIds: [], expiry: 'never', expiresOn: null };

/** When the key the form describes expires (null: never). */
function expiryOf(values: ApiKeyValues, now: number): Date | null {
  if (values.expiry === 'never') return null;
  if (values.expiry === 'date') return values.expiresOn;
  return new Date(now + Number(values.expiry) * DAY_MS);
}

/** The body the form's values send. */
function toInput(values: ApiKeyValues, now: number): CreateApiKeyInput {
  return {
    name: values.name.trim(),
    role: values.role,
    siteIds: values.scope === 'sites' ? values.siteIds : null,
    expiresAt: expiryOf(values, now)?.toISOString() ?? null,
  };
}

export type CreateApiKeyDialogProps = DialogProps & {
  /** The organization's sites, to limit the key to some of them. */
  sites: SiteSummary[];
  /** Creates the key; the dialog closes when it resolves (the tab then shows the value once). */
  onSubmit: (key: CreateApiKeyInput) => Promise<unknown>;
  mutation: MutationState;
};

/**
 * Create API key: a name, a role (as for people), the whole organization or chosen sites, and
 * when it expires (never, in some days, or on a date picked). Create is disabled until the name is
 * given, a site chosen when limited to sites, and a future date picked when expiring on a date.
 */
export function CreateApiKeyDialog({ opened, onClose, sites, onSubmit, mutation }: CreateApiKeyDialogProps) {
  const form = useForm<ApiKeyValues>({ initialValues: INITIAL });
  const { values } = form;
  const noSite = values.scope === 'sites' && values.siteIds.length === 0;
  const noDate = values.expiry === 'date' && !(values.expiresOn && values.expiresOn.getTime() > Date.now());
  const isIncomplete = values.name.trim() === '' || noSite || noDate;

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title="Create API key"
      onSubmit={() => onSubmit(toInput(values, Date.now()))}
      mutation={mutation}
      confirmLabel="Create"
      isConfirmDisabled={isIncomplete}
      errorFallback="Could not create the API key."
      onOpen={form.reset}
    >
      <Text size="sm">
        A key lets automation (a show-control system, a nightly script) call the Plinth API with the role you choose. It can never manage users or keys.
      </Text>
      <TextInput label="Name" description="Calls made with the key are recorded under this name." {...form.getInputProps('name')} data-autofocus required />
      <Select
        label="Role"
        data={ROLE_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
        value={values.role}
        onChange={(value) => {
          const role = ROLE_OPTIONS.find((o) => o.value === value)?.value;
          if (role) form.setFieldValue('role', role);
        }}
        allowDeselect={false}
      />
      <Radio.Group label="Scope" value={values.scope} onChange={(value) => form.setFieldValue('scope', value === 'sites' ? 'sites' : 'organization')}>
        <Stack gap="xs" mt="xs">
          <Radio value="organization" label="The whole organization" />
          <Radio value="sites" label="Chosen sites" disabled={sites.length === 0} />
        </Stack>
      </Radio.Group>
      {values.scope === 'sites' && (
        <MultiSelect
          label="Sites"
          data={sites.map((s) => ({ value: s.id, label: s.name }))}
          value={values.siteIds}
          onChange={(siteIds) => form.setFieldValue('siteIds', siteIds)}
          searchable
          required
        />
      )}
      <Select label="Expires" data={EXPIRY_OPTIONS} value={values.expiry} onChange={(value) => value && form.setFieldValue('expiry', value)} allowDeselect={false} />
      {values.expiry === 'date' && (
        <DateTimePicker
          label="Expires on"
          value={values.expiresOn}
          minDate={new Date()}
          valueFormat={DATE_FORMATS.picker}
          onChange={(next) => form.setFieldValue('expiresOn', parsePickerValue(next))}
          submitButtonProps={{ 'aria-label': 'Apply expiry' }}
          required
        />
      )}
    </FormDialog>
  );
}
