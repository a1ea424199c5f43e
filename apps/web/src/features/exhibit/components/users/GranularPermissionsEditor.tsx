import { Alert, Button, Group, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { GranularLevel, GranularPermissions, ItemPermission } from '@plinth/shared';
import { QueryGate } from '../../../../components/QueryGate';
import { errorText } from '../../../../lib/mutation-state';
import { useGranularPermissions } from '../../api/get-granular-permissions';
import { useUpdateGranularPermissions } from '../../api/update-granular-permissions';
import {
  changedLevels,
  countChanges,
  GRANULAR_SECTIONS,
  isAboveMax,
  LEVEL_LABELS,
  LEVELS_SHOWN,
  maxLevelReason,
  type GranularListKey,
  type LevelEdits,
} from '../../lib/granular-levels';

export type GranularPermissionsEditorProps = {
  exhibitId: string;
  userId: string;
  email: string;
  /** The caller may change levels (a manager); otherwise the levels are shown only. */
  canEdit: boolean;
};

type LevelControlProps = {
  item: ItemPermission;
  value: GranularLevel;
  disabled: boolean;
  onChange: (level: GranularLevel) => void;
};

/** One item's level: Read-write, Read or Hidden, the ones above the role's cap disabled with the reason. */
function LevelControl({ item, value, disabled, onChange }: LevelControlProps) {
  const data = LEVELS_SHOWN.map((level) => {
    const blocked = isAboveMax(item, level);
    const label = blocked ? (
      <Tooltip label={maxLevelReason(item)}>
        <span>{LEVEL_LABELS[level]}</span>
      </Tooltip>
    ) : (
      LEVEL_LABELS[level]
    );
    return { value: level, label, disabled: blocked };
  });
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm" truncate>
        {item.display}
      </Text>
      <SegmentedControl
        aria-label={`${item.display} permission`}
        size="xs"
        data={data}
        value={value}
        disabled={disabled}
        onChange={(level) => onChange(level as GranularLevel)}
      />
    </Group>
  );
}

type SectionProps = {
  title: string;
  items: ItemPermission[];
  levelOf: (item: ItemPermission) => GranularLevel;
  disabled: boolean;
  onChange: (id: string, level: GranularLevel) => void;
};

function Section({ title, items, levelOf, disabled, onChange }: SectionProps) {
  return (
    <Stack gap={4} role="group" aria-label={title}>
      <Title order={6}>{title}</Title>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          None in this exhibit.
        </Text>
      ) : (
        items.map((item) => <LevelControl key={item.id} item={item} value={levelOf(item)} disabled={disabled} onChange={(level) => onChange(item.id, level)} />)
      )}
    </Stack>
  );
}

/**
 * One exhibit user's level on each status, setting, setting list and control (spec 2.10): chosen
 * per item, never above what the role allows, and saved together with Save permissions.
 */
export function GranularPermissionsEditor(props: GranularPermissionsEditorProps) {
  const { exhibitId, userId, email } = props;
  const granular = useGranularPermissions({ exhibitId, userId });
  return (
    <QueryGate query={granular} loading={`Loading the permissions of ${email}`} failed={`The permissions of ${email} cannot be shown right now.`}>
      {(stored) => <LevelsForm {...props} stored={stored} />}
    </QueryGate>
  );
}

/** The levels as read (`stored`) with the edits not saved yet, Revert and Save permissions. */
function LevelsForm({ exhibitId, userId, email, canEdit, stored }: GranularPermissionsEditorProps & { stored: GranularPermissions }) {
  const save = useUpdateGranularPermissions();
  const [edits, setEdits] = useState<LevelEdits>({});
  const changes = countChanges(stored, edits);
  const levelOf = (key: GranularListKey) => (item: ItemPermission) => edits[key]?.[item.id] ?? item.level;

  const handleChange = (key: GranularListKey) => (id: string, level: GranularLevel) => {
    save.reset();
    setEdits((current) => ({
      ...current,
      [key]: { ...current[key], [id]: level },
    }));
  };

  const handleRevert = () => {
    save.reset();
    setEdits({});
  };

  const handleSave = () =>
    save
      .mutateAsync({ exhibitId, userId, ...changedLevels(stored, edits) })
      .then(() => {
        setEdits({});
        notifications.show({
          color: 'teal',
          message: `The permissions of ${email} were saved.`,
        });
      })
      .catch((e: unknown) => console.error('Granular permissions save failed', e));

  return (
    <Stack gap="md">
      {GRANULAR_SECTIONS.map(({ key, title }) => (
        <Section key={key} title={title} items={stored[key]} levelOf={levelOf(key)} disabled={!canEdit || save.isPending} onChange={handleChange(key)} />
      ))}
      {save.error && (
        <Alert color="red" variant="light" role="alert">
          {errorText(save.error, 'The permissions could not be saved.')}
        </Alert>
      )}
      {canEdit && (
        <Group justify="flex-end" gap="xs">
          <Button variant="default" disabled={changes === 0 || save.isPending} onClick={handleRevert}>
            Revert
          </Button>
          <Button disabled={changes === 0} loading={save.isPending} onClick={() => void handleSave()}>
            Save permissions
          </Button>
        </Group>
      )}
    </Stack>
  );
}
