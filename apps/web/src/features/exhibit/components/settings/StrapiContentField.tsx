import { Anchor, Button, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { STRAPI_MESSAGES, type ExhibitSetting, type SettingValue } from '@plinth/shared';
import { ApiError } from '../../../../lib/api-client';
import { errorText } from '../../../../lib/mutation-state';
import { paths } from '../../../../lib/paths';
import { useStrapiContent } from '../../api/list-strapi-content';

export type StrapiContentFieldProps = {
  exhibitId: string;
  organizationId: string;
  setting: ExhibitSetting;
  /** The chosen content id (the pending edit, else the saved value); null when none. */
  value: SettingValue;
  disabled: boolean;
  label: string;
  onChange: (value: SettingValue) => void;
};

/** Which of the spec's content-service messages a failed listing is, from the error's `details.reason`. */
function failureReason(error: unknown): 'noUrl' | 'noJwt' | 'options' | null {
  const reason = error instanceof ApiError ? (error.body as { details?: { reason?: unknown } } | null)?.details?.reason : undefined;
  return reason === 'noUrl' || reason === 'noJwt' || reason === 'options' ? reason : null;
}

function FailureMessage({ error, setting, organizationId }: { error: unknown; setting: ExhibitSetting; organizationId: string }) {
  const reason = failureReason(error);
  if (reason === 'noUrl') {
    return (
      <Text size="sm" c="red">
        {STRAPI_MESSAGES.noUrl}.{' '}
        <Anchor component={Link} to={paths.organization(organizationId, 'settings')} size="sm">
          Organization settings
        </Anchor>
      </Text>
    );
  }
  const message =
    reason === 'noJwt'
      ? STRAPI_MESSAGES.noJwt
      : reason === 'options'
        ? STRAPI_MESSAGES.options(setting.contentType ?? '')
        : errorText(error, STRAPI_MESSAGES.options(setting.contentType ?? ''));
  return (
    <Text size="sm" c="red" role="alert">
      {message}
    </Text>
  );
}

/**
 * A StrapiContent setting (spec 2.4): a searchable choice among the entries of its content type
 * in the organization's content manager, loaded ten at a time through the server (the content
 * manager's credentials never reach the browser). The choice is a pending edit like any other;
 * Save sends it with the strapi-content call. Failures show the spec's messages.
 */
export function StrapiContentField({ exhibitId, organizationId, setting, value, disabled, label, onChange }: StrapiContentFieldProps) {
  const content = useStrapiContent({ exhibitId, settingId: setting.manifestId });
  const pages = content.data?.pages ?? [];
  const entries = pages.flatMap((p) => p.entries);
  const total = pages.at(-1)?.total ?? 0;
  const chosen = value === null || value === undefined || value === '' ? null : String(value);
  const options = entries.map((e) => ({ value: String(e.id), label: e.display || `ID ${e.id}` }));
  // A chosen entry not among the pages loaded yet still shows (by its id).
  if (chosen !== null && !options.some((o) => o.value === chosen)) options.unshift({ value: chosen, label: `ID ${chosen}` });
  const isLoading = content.isPending || content.isFetchingNextPage;

  return (
    <Stack gap={4}>
      <Select
        aria-label={label}
        data={options}
        value={chosen}
        searchable
        clearable
        disabled={disabled || content.isPending}
        placeholder={content.isPending ? 'Loading content…' : 'Choose content'}
        nothingFoundMessage="No content matches"
        rightSection={isLoading ? <Loader size="xs" aria-label="Loading content" /> : undefined}
        onChange={(next) => onChange(next)}
      />
      {content.isError && (
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <FailureMessage error={content.error} setting={setting} organizationId={organizationId} />
          <Button size="compact-xs" variant="subtle" loading={content.isFetching} onClick={() => void content.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      {content.isSuccess && total === 0 && (
        <Text size="xs" c="dimmed">
          The content manager has no {setting.contentType} content yet.
        </Text>
      )}
      {content.isSuccess && total > 0 && (
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {entries.length} of {total} loaded
          </Text>
          {content.hasNextPage && (
            <Button size="compact-xs" variant="subtle" loading={content.isFetchingNextPage} onClick={() => void content.fetchNextPage()}>
              Load more
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}
