import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { BREAKPOINT_MEDIUM_PX, DEFAULT_START_OFFSET_MS, NETWORK_ERROR_BANNER_MS, type Exhibit } from '@plinth/shared';
import { PageState } from '../../../../components/PageState';
import { errorText } from '../../../../lib/mutation-state';
import type { ScheduleRangeKey } from '../../../../lib/query-keys';
import { useExhibitSchedules } from '../../api/list-schedules';
import { useUpdateSchedule } from '../../api/update-schedule';
import { movedBodyOf, serverProblemText } from '../../lib/schedule-form';
import { ScheduleCalendar, type ScheduleMove } from './ScheduleCalendar';
import { ScheduleChoiceDialog, type ScheduleScope } from './ScheduleChoiceDialog';
import { ScheduleEventDialog, type ScheduleDialogTarget } from './ScheduleEventDialog';

export const NO_EVENTS_TEXT = 'No events scheduled yet.';
const DAY_MS = 86_400_000;

/** The range read before the calendar reports the one it shows: a few days either side of this week. */
function initialRange(nowMs: number): ScheduleRangeKey {
  return { start: new Date(nowMs - 8 * DAY_MS).toISOString(), end: new Date(nowMs + 8 * DAY_MS).toISOString() };
}

/**
 * The exhibit's Scheduling tab (spec 2.9): a calendar of its scheduled events in the site's time
 * zone, week view by default, with month; completed events grey, waiting ones orange, missed and
 * failed ones red. Users with canModify create events (the button or an empty slot), edit and
 * delete those that have not run, and drag them to move them; others see each event read-only.
 * Under 1000 px the calendar shows a day and the dialog the whole screen.
 */
export function ExhibitSchedulingTab({ exhibit }: { exhibit: Exhibit }) {
  const [range, setRange] = useState<ScheduleRangeKey>(() => initialRange(Date.now()));
  const [target, setTarget] = useState<ScheduleDialogTarget | null>(null);
  const [move, setMove] = useState<ScheduleMove | null>(null);
  const isCompact = useMediaQuery(`(max-width: ${BREAKPOINT_MEDIUM_PX}px)`) ?? false;
  const list = useExhibitSchedules(exhibit.id, range);
  const update = useUpdateSchedule();

  const handleRangeChange = (next: ScheduleRangeKey) => setRange((r) => (r.start === next.start && r.end === next.end ? r : next));

  const saveMove = async (m: ScheduleMove, changeAll: boolean) => {
    try {
      await update.mutateAsync({ eventId: m.schedule.id, body: movedBodyOf(m.schedule, m.start, m.end, changeAll) });
      notifications.show({ color: 'teal', message: changeAll ? 'The events were moved.' : 'The event was moved.' });
    } catch (error) {
      m.revert();
      notifications.show({
        color: 'red',
        title: 'The event was not moved',
        message: serverProblemText(errorText(error, 'The event could not be moved.')),
        autoClose: NETWORK_ERROR_BANNER_MS,
      });
    } finally {
      setMove(null);
    }
  };

  const handleMove = (m: ScheduleMove) => {
    if (m.schedule.recurringId) setMove(m);
    else void saveMove(m, false);
  };

  const handleMoveCancel = () => {
    move?.revert();
    setMove(null);
  };

  const handleSlotSelect = (startMs: number) => setTarget({ kind: 'create', startMs: Math.max(startMs, Date.now() + DEFAULT_START_OFFSET_MS) });

  if (!list.data) {
    if (list.isError) {
      return (
        <Alert color="red" title="The scheduled events cannot be shown right now" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorText(list.error, 'They could not be read.')}</Text>
            <Button size="xs" variant="light" color="red" loading={list.isFetching} onClick={() => void list.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      );
    }
    return <PageState kind="loading" label="Loading scheduled events" />;
  }

  const { schedules, timeZone, canModify } = list.data;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Title order={4}>Scheduling</Title>
          <Text size="sm" c="dimmed" data-testid="schedule-zone">
            Times in {timeZone}
          </Text>
        </Stack>
        {canModify && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setTarget({ kind: 'create' })}>
            Create Event
          </Button>
        )}
      </Group>
      {list.isError && (
        <Alert color="red" variant="light" p="xs" role="alert">
          <Group gap="xs">
            <Text size="sm">The events of these dates cannot be read right now. {errorText(list.error, '')}</Text>
            <Button size="compact-xs" variant="subtle" color="red" loading={list.isFetching} onClick={() => void list.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}
      {schedules.length === 0 && !list.isPlaceholderData && (
        <Text size="sm" c="dimmed">
          {NO_EVENTS_TEXT}
          {canModify ? ' Create one with Create Event or by choosing a time on the calendar.' : ''}
        </Text>
      )}
      <ScheduleCalendar
        schedules={schedules}
        zone={timeZone}
        canModify={canModify}
        isCompact={isCompact}
        onRangeChange={handleRangeChange}
        onEventClick={(event) => setTarget({ kind: 'event', event })}
        onSlotSelect={handleSlotSelect}
        onEventMove={handleMove}
      />
      <ScheduleEventDialog target={target} exhibit={exhibit} zone={timeZone} canModify={canModify} isCompact={isCompact} onClose={() => setTarget(null)} />
      <ScheduleChoiceDialog
        opened={move !== null}
        title="Move a recurring event"
        message="Apply to this event only, or to all future events in the series?"
        scopes={['one', 'all'] satisfies ScheduleScope[]}
        isPending={update.isPending}
        onChoose={(scope) => move && void saveMove(move, scope === 'all')}
        onCancel={handleMoveCancel}
      />
    </Stack>
  );
}
