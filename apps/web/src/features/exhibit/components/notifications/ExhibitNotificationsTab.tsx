import { Alert, Badge, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import {
  EXHIBIT_USER_MESSAGES,
  NOTIFICATION_TOGGLE_LABELS,
  NOTIFICATION_TOGGLES,
  type Exhibit,
  type NotificationSubscription,
  type NotificationToggle,
} from '@plinth/shared';
import { ExpandableRow } from '../../../../components/ExpandableRow';
import { PageState } from '../../../../components/PageState';
import { QueryGate } from '../../../../components/QueryGate';
import { useCurrentUser } from '../../../../lib/api/get-current-user';
import { errorText } from '../../../../lib/mutation-state';
import { useExhibitNotifications } from '../../api/list-exhibit-notifications';
import { useUpdateExhibitNotification } from '../../api/update-exhibit-notifications';

export const CANNOT_EDIT_OTHERS_TEXT = "Only managers can change other users' notifications";
export const MASTER_OFF_HINT = 'Turn on email notifications for this exhibit first';

type TogglesProps = {
  row: NotificationSubscription;
  /** Saves one switch; settles when the server answered (the row then holds the outcome). */
  onToggle: (toggle: NotificationToggle, value: boolean) => Promise<unknown>;
};

/** The seven switches of one user; the master switch first, the others usable only while it is on. */
function NotificationToggles({ row, onToggle }: TogglesProps) {
  const [master, ...others] = NOTIFICATION_TOGGLES;
  // A switch flips in the click itself (not a task later, when the cache's own update renders);
  // once the server answered, the row's value (saved, or put back) shows again.
  const [flipped, setFlipped] = useState<Partial<Record<NotificationToggle, boolean>>>({});
  const handleChange = (toggle: NotificationToggle, value: boolean) => {
    setFlipped((current) => ({ ...current, [toggle]: value }));
    void onToggle(toggle, value).finally(() =>
      setFlipped((current) => {
        const { [toggle]: _done, ...rest } = current;
        return rest;
      }),
    );
  };
  const valueOf = (toggle: NotificationToggle) => flipped[toggle] ?? row[toggle];
  const switchFor = (toggle: NotificationToggle, disabled: boolean) => (
    <Switch
      key={toggle}
      label={NOTIFICATION_TOGGLE_LABELS[toggle]}
      checked={valueOf(toggle)}
      disabled={disabled}
      onChange={(e) => handleChange(toggle, e.currentTarget.checked)}
    />
  );
  return (
    <Stack gap="xs">
      {!row.canEdit && (
        <Text size="sm" c="dimmed">
          {CANNOT_EDIT_OTHERS_TEXT}
        </Text>
      )}
      {switchFor(master, !row.canEdit)}
      {row.canEdit && !valueOf('notify') && (
        <Text size="xs" c="dimmed">
          {MASTER_OFF_HINT}
        </Text>
      )}
      <Stack gap="xs" pl="lg">
        {others.map((toggle) => switchFor(toggle, !row.canEdit || !valueOf('notify')))}
      </Stack>
    </Stack>
  );
}

/**
 * The exhibit's Notifications tab (spec 2.11): per exhibit user the mails they get about it. A
 * switch saves at once and shows its new state before the server answers, back to the old one if
 * it refuses. Managers change anyone's; others only their own.
 */
export function ExhibitNotificationsTab({ exhibit }: { exhibit: Exhibit }) {
  const list = useExhibitNotifications(exhibit.id);
  const me = useCurrentUser();
  const update = useUpdateExhibitNotification(exhibit.id);

  const isOwn = (row: NotificationSubscription) => row.userId === me.data?.id;

  const handleToggle = (row: NotificationSubscription) => (toggle: NotificationToggle, value: boolean) =>
    update
      .mutateAsync({
        exhibitId: exhibit.id,
        userId: row.userId,
        isOwn: isOwn(row),
        toggle,
        value,
      })
      .catch((e: unknown) => console.error('Notification change failed', e));

  const body = (subscriptions: NotificationSubscription[]) => {
    const rows = [...subscriptions].sort((a, b) => a.email.localeCompare(b.email));
    if (rows.length === 0) return <PageState kind="empty" label={EXHIBIT_USER_MESSAGES.noUsers} />;
    return (
      <Stack gap="xs" role="list" aria-label="Notifications by user">
        {rows.map((row) => (
          <ExpandableRow
            key={row.id}
            label={row.email}
            header={
              <>
                <Text truncate>{row.email}</Text>
                {isOwn(row) && (
                  <Badge variant="light" size="sm">
                    You
                  </Badge>
                )}
              </>
            }
          >
            <NotificationToggles row={row} onToggle={handleToggle(row)} />
          </ExpandableRow>
        ))}
      </Stack>
    );
  };

  return (
    <Stack gap="md">
      <Title order={4}>Notifications</Title>
      {update.error && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => update.reset()}>
          The change could not be saved. {errorText(update.error, '')}
        </Alert>
      )}
      <QueryGate query={list} loading="Loading notifications" failed="The notifications of this exhibit cannot be shown right now.">
        {(data) => body(data.exhibitNotifications)}
      </QueryGate>
    </Stack>
  );
}
