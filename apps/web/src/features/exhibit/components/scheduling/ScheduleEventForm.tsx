import { Alert, Button, Chip, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { DAY_NAMES, FREQUENCIES, NETWORK_ERROR_BANNER_MS, type Exhibit, type FrequencyValue, type ScheduledEvent } from '@plinth/shared';
import { errorText } from '../../../../lib/mutation-state';
import { useCreateSchedule } from '../../api/create-schedule';
import { useDeleteSchedule } from '../../api/delete-schedule';
import { useExhibitManifest } from '../../api/get-exhibit-manifest';
import { useUpdateSchedule } from '../../api/update-schedule';
import { changeValueProblem, scheduleChoicesOf } from '../../lib/schedule-choices';
import {
  changeKey,
  changesOfManifest,
  createBodyOf,
  isSeriesWideChange,
  minRecurringEnd,
  scheduleFormProblems,
  serverProblemText,
  updateBodyOf,
  withRecurring,
  type ScheduleFormValues,
} from '../../lib/schedule-form';
import { ScheduleChangesEditor } from './ScheduleChangesEditor';
import { ScheduleChoiceDialog, type ScheduleScope } from './ScheduleChoiceDialog';

/** The latest date a date input accepts: years have at most 4 digits (spec 5). */
const MAX_WALL_TIME = '9999-12-31T23:59';
const DAY_SHORT = DAY_NAMES.map((d) => d.slice(0, 3));

export type ScheduleEventFormProps = {
  exhibit: Exhibit;
  /** The site's IANA zone: the form's dates are wall-clock times there. */
  zone: string;
  /** The occurrence edited; none for Create. */
  event?: ScheduledEvent;
  initialValues: ScheduleFormValues;
  /** The form is done (saved, deleted or cancelled). */
  onClose: () => void;
  /** The clock (tests fix it). */
  now?: () => number;
};

type Asking = 'save' | 'delete' | null;

/** The names the stored event gave its changes, by change key, for items the manifest no longer has. */
function knownNamesOf(event: ScheduledEvent | undefined): Record<string, string> {
  if (!event) return {};
  const names: Record<string, string> = {};
  const changes = changesOfManifest({
    controls: event.schedulecontrols.map((c) => ({ controlId: c.controlId, controlGroupItemId: c.controlGroupItemId })),
    settings: event.schedulesettings.map((s) => ({ settingId: s.settingId, value: s.value, listName: s.listName })),
    strapiContent: event.schedulestrapicontents.map((s) => ({ strapiContentId: s.strapiContentId, value: s.value })),
  });
  const labels = [...event.schedulecontrols.map((c) => c.control), ...event.schedulesettings.map((s) => s.setting), ...event.schedulestrapicontents.map((s) => s.strapicontent)];
  changes.forEach((c, i) => (names[changeKey(c)] = labels[i] ?? ''));
  return names;
}

/**
 * The editable event (spec 2.9, 5): name, start, end, recurring with its frequency, days and end,
 * and the changes to apply. Dates are checked as the user types; Create or Save stays disabled
 * while a problem remains. Saving or deleting an occurrence of a series asks whether it is for
 * this event or all future ones (only all, when the series itself changed). A failure shows the
 * server's text under the dates and in a red banner for 5 seconds.
 */
export function ScheduleEventForm({ exhibit, zone, event, initialValues, onClose, now = Date.now }: ScheduleEventFormProps) {
  const [values, setValues] = useState(initialValues);
  const [nameTouched, setNameTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const manifest = useExhibitManifest(exhibit.id);
  const choices = useMemo(() => scheduleChoicesOf(manifest.data?.manifest), [manifest.data]);
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const remove = useDeleteSchedule();
  const isPending = create.isPending || update.isPending || remove.isPending;
  const isSeries = Boolean(event?.recurringId);

  const checkStart = !event || values.start !== initialValues.start;
  const problems = scheduleFormProblems(values, zone, now(), checkStart);
  const valueProblem = changeValueProblem(values.changes, choices);
  const hasProblems = Object.keys(problems).length > 0 || valueProblem !== null;
  const seriesWide = event ? isSeriesWideChange(initialValues, values, zone) : false;

  const set = (patch: Partial<ScheduleFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const setDate = (patch: Partial<ScheduleFormValues>) => {
    setServerError(null);
    set(patch);
  };

  const run = async (write: () => Promise<unknown>, done: string) => {
    try {
      await write();
      notifications.show({ color: 'teal', message: done });
      onClose();
    } catch (error) {
      const text = serverProblemText(errorText(error, 'The event could not be saved.'));
      setServerError(text);
      notifications.show({ color: 'red', title: 'The event was not saved', message: text, autoClose: NETWORK_ERROR_BANNER_MS });
    } finally {
      setAsking(null);
    }
  };

  const save = (changeAll: boolean) =>
    event
      ? run(() => update.mutateAsync({ eventId: event.id, body: updateBodyOf(event, values, zone, changeAll) }), changeAll ? 'The events were saved.' : 'The event was saved.')
      : run(() => create.mutateAsync({ exhibitId: exhibit.id, body: createBodyOf(values, zone) }), 'The event was created.');

  const handleSubmit = () => {
    if (hasProblems) return;
    if (isSeries) setAsking('save');
    else void save(seriesWide);
  };

  const handleDelete = (scope: ScheduleScope) => {
    if (!event) return;
    void run(
      () => remove.mutateAsync({ exhibitId: exhibit.id, eventId: event.id, recurringId: event.recurringId, changeAll: scope === 'all' }),
      scope === 'all' ? 'The events were deleted.' : 'The event was deleted.',
    );
  };

  const dayChips = (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="schedule-days-label">
        Days
      </Text>
      <Chip.Group
        multiple
        value={DAY_NAMES.filter((_, i) => values.mask[i] === '1')}
        onChange={(days) => set({ mask: DAY_NAMES.map((d) => (days.includes(d) ? '1' : '0')).join('') })}
      >
        <Group gap={4} role="group" aria-labelledby="schedule-days-label">
          {DAY_NAMES.map((day, i) => (
            <Chip key={day} value={day} size="xs" aria-label={day}>
              {DAY_SHORT[i]}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {problems.mask && (
        <Text size="xs" c="red">
          {problems.mask}
        </Text>
      )}
    </Stack>
  );

  return (
    <Stack gap="sm">
      <TextInput
        label="Event name"
        required
        value={values.name}
        maxLength={200}
        error={nameTouched ? problems.name : undefined}
        onChange={(e) => {
          setNameTouched(true);
          set({ name: e.currentTarget.value });
        }}
        onBlur={() => setNameTouched(true)}
      />
      <Group grow align="flex-start" wrap="wrap">
        <TextInput type="datetime-local" label="Start" required max={MAX_WALL_TIME} value={values.start} error={problems.startDate} onChange={(e) => setDate({ start: e.currentTarget.value })} />
        <TextInput
          type="datetime-local"
          label="End"
          description={values.end ? undefined : 'Never ends'}
          max={MAX_WALL_TIME}
          value={values.end}
          error={problems.endDate}
          onChange={(e) => setDate({ end: e.currentTarget.value })}
        />
      </Group>
      <Text size="xs" c="dimmed">
        Times in {zone}. Schedules run within 5 minutes of the specified time.
      </Text>
      <Switch label="Recurring" checked={values.recurring} onChange={(e) => setDate(withRecurring(values, e.currentTarget.checked, zone))} />
      {values.recurring && (
        <Stack gap="sm">
          <Group grow align="flex-start" wrap="wrap">
            <Select
              label="Frequency"
              data={[...FREQUENCIES]}
              value={values.frequency}
              allowDeselect={false}
              onChange={(v) => v && set({ frequency: v as FrequencyValue })}
            />
            <TextInput
              type="datetime-local"
              label="Recurring end date"
              required
              min={minRecurringEnd(values, zone)}
              max={MAX_WALL_TIME}
              value={values.recurringEnd}
              error={problems.recurringEndDate}
              onChange={(e) => setDate({ recurringEnd: e.currentTarget.value })}
            />
          </Group>
          {values.frequency === 'Custom' && dayChips}
        </Stack>
      )}
      {serverError && (
        <Alert color="red" variant="light" p="xs" role="alert" data-testid="schedule-date-error">
          {serverError}
        </Alert>
      )}
      {manifest.isError && (
        <Alert color="red" variant="light" p="xs">
          The exhibit's controls and settings cannot be read right now. {errorText(manifest.error, '')}
        </Alert>
      )}
      <ScheduleChangesEditor
        exhibitId={exhibit.id}
        organizationId={exhibit.organizationId}
        choices={choices}
        changes={values.changes}
        knownNames={knownNamesOf(event)}
        disabled={false}
        error={values.changes.length > 0 ? (problems.changes ?? valueProblem ?? undefined) : undefined}
        onChange={(changes) => set({ changes })}
      />
      {values.changes.length === 0 && problems.changes && (
        <Text size="xs" c="dimmed">
          {problems.changes}
        </Text>
      )}
      <Group justify="space-between" mt="sm">
        <Group gap="xs">
          {event && (
            <Button color="red" variant="light" onClick={() => setAsking('delete')} disabled={isPending}>
              Delete
            </Button>
          )}
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={onClose} disabled={isPending}>
            Cancel
          </Button>
          <Button onClick={handleSubmit} disabled={hasProblems} loading={isPending && asking === null}>
            {event ? 'Save' : 'Create'}
          </Button>
        </Group>
      </Group>
      <ScheduleChoiceDialog
        opened={asking === 'save'}
        title={seriesWide ? 'Change the whole series' : 'Save a recurring event'}
        message={
          seriesWide
            ? 'The frequency or the recurring end date changed: the change applies to all future events in the series.'
            : 'Apply to this event only, or to all future events in the series?'
        }
        scopes={seriesWide ? ['all'] : ['one', 'all']}
        isPending={isPending}
        onChoose={(scope) => void save(scope === 'all')}
        onCancel={() => setAsking(null)}
      />
      <ScheduleChoiceDialog
        opened={asking === 'delete'}
        title="Delete event"
        message={isSeries ? 'Delete this event only, or all future events in the series?' : `Delete the event ${event?.name ?? ''}?`}
        scopes={isSeries ? ['one', 'all'] : ['one']}
        labels={isSeries ? undefined : { one: 'Confirm' }}
        danger
        isPending={isPending}
        onChoose={handleDelete}
        onCancel={() => setAsking(null)}
      />
    </Stack>
  );
}
