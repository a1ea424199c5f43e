import { ActionIcon, Alert, Button, Group, Menu, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ScheduleChoices } from '../../lib/schedule-choices';
import { changeKey, type ScheduleChange } from '../../lib/schedule-form';
import { StrapiContentField } from '../settings/StrapiContentField';
import { ScheduleSettingInput } from './ScheduleSettingInput';
import { orDash } from '../../../../lib/no-value';

export type ScheduleChangesEditorProps = {
  exhibitId: string;
  organizationId: string;
  choices: ScheduleChoices;
  changes: ScheduleChange[];
  /** Display names of changed items that the manifest may no longer have (from the stored event). */
  knownNames: Record<string, string>;
  disabled: boolean;
  error?: string;
  onChange: (changes: ScheduleChange[]) => void;
};

/**
 * The changes an event applies at its start: a list of chosen controls, setting values,
 * content-service choices and the op mode, each with its editor and a remove button, and an
 * 'Add change' menu of what is not chosen yet.
 */
export function ScheduleChangesEditor({ exhibitId, organizationId, choices, changes, knownNames, disabled, error, onChange }: ScheduleChangesEditorProps) {
  const chosen = new Set(changes.map(changeKey));
  const handleAdd = (change: ScheduleChange) => onChange([...changes, change]);
  const handleUpdate = (index: number, change: ScheduleChange) => onChange(changes.map((c, i) => (i === index ? change : c)));
  const handleRemove = (index: number) => onChange(changes.filter((_, i) => i !== index));

  const controlChoices = choices.controls.filter((c) => !chosen.has(`control:${c.manifestId}`));
  const settingChoices = choices.settings.filter((s) => !chosen.has(`setting:${s.manifestId}:`));
  const contentChoices = choices.content.filter((s) => !chosen.has(`content:${s.manifestId}`));

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={500} size="sm">
          Changes to apply
        </Text>
        {!disabled && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button size="xs" variant="light" leftSection={<IconPlus size={14} />}>
                Add change
              </Button>
            </Menu.Target>
            <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
              {controlChoices.length > 0 && <Menu.Label>Controls</Menu.Label>}
              {controlChoices.map((c) => {
                const items = [...c.items].sort((a, b) => a.order - b.order);
                const isGroup = c.type === 'Group';
                return (
                  <Menu.Item key={c.id} onClick={() => handleAdd({ kind: 'control', controlId: c.manifestId, itemId: isGroup ? (items[0]?.id ?? null) : null, needsItem: isGroup })}>
                    Control: {c.display}
                  </Menu.Item>
                );
              })}
              {settingChoices.length > 0 && <Menu.Label>Settings</Menu.Label>}
              {settingChoices.map((s) => (
                <Menu.Item key={s.id} onClick={() => handleAdd({ kind: 'setting', settingId: s.manifestId, value: s.value, listName: null, listId: null })}>
                  Setting: {s.display}
                </Menu.Item>
              ))}
              {contentChoices.length > 0 && <Menu.Label>Content</Menu.Label>}
              {contentChoices.map((s) => (
                <Menu.Item
                  key={s.id}
                  onClick={() => handleAdd({ kind: 'content', settingId: s.manifestId, value: typeof s.value === 'string' || typeof s.value === 'number' ? s.value : null })}
                >
                  Content: {s.display}
                </Menu.Item>
              ))}
              {!chosen.has('opMode') && (
                <>
                  <Menu.Label>Exhibit</Menu.Label>
                  <Menu.Item onClick={() => handleAdd({ kind: 'opMode', opMode: 'On' })}>Operating mode</Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {changes.length === 0 && (
        <Text size="sm" c="dimmed">
          No changes yet: add the controls to fire, the settings to set or the operating mode to switch when the event starts.
        </Text>
      )}
      {changes.map((change, index) => (
        <ChangeRow
          key={changeKey(change)}
          exhibitId={exhibitId}
          organizationId={organizationId}
          change={change}
          choices={choices}
          knownNames={knownNames}
          disabled={disabled}
          onChange={(next) => handleUpdate(index, next)}
          onRemove={() => handleRemove(index)}
        />
      ))}
      {choices.hasLists && !disabled && (
        <Text size="xs" c="dimmed">
          Settings of setting-list items cannot be scheduled here.
        </Text>
      )}
      {error && (
        <Alert color="red" variant="light" p="xs" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}

type ChangeRowProps = {
  exhibitId: string;
  organizationId: string;
  change: ScheduleChange;
  choices: ScheduleChoices;
  knownNames: Record<string, string>;
  disabled: boolean;
  onChange: (change: ScheduleChange) => void;
  onRemove: () => void;
};

function ChangeRow({ exhibitId, organizationId, change, choices, knownNames, disabled, onChange, onRemove }: ChangeRowProps) {
  const { title, editor } = (() => {
    switch (change.kind) {
      case 'control': {
        const control = choices.controls.find((c) => c.manifestId === change.controlId);
        const name = control?.display ?? knownNames[changeKey(change)] ?? change.controlId;
        const items = control ? [...control.items].sort((a, b) => a.order - b.order).map((i) => ({ value: i.id, label: i.display })) : [];
        return {
          title: `Control: ${name}`,
          editor: change.needsItem ? (
            <Select label={`${name} item`} data={items} value={change.itemId} allowDeselect={false} disabled={disabled} onChange={(v) => onChange({ ...change, itemId: v })} />
          ) : (
            <Text size="sm" c="dimmed">
              Fires when the event starts.
            </Text>
          ),
        };
      }
      case 'setting': {
        const setting = change.listName ? undefined : choices.settings.find((s) => s.manifestId === change.settingId);
        const name = setting?.display ?? knownNames[changeKey(change)] ?? change.settingId;
        return {
          title: `Setting: ${name}${change.listName ? ` (list item ${change.listName})` : ''}`,
          editor: setting ? (
            <ScheduleSettingInput setting={setting} value={change.value} disabled={disabled} onChange={(value) => onChange({ ...change, value })} />
          ) : (
            <Text size="sm">Value: {orDash(change.value)}</Text>
          ),
        };
      }
      case 'content': {
        const setting = choices.content.find((s) => s.manifestId === change.settingId);
        const name = setting?.display ?? knownNames[changeKey(change)] ?? change.settingId;
        return {
          title: `Content: ${name}`,
          editor: setting ? (
            <StrapiContentField
              exhibitId={exhibitId}
              organizationId={organizationId}
              setting={setting}
              value={change.value}
              disabled={disabled}
              label={`${name} content`}
              onChange={(v) => onChange({ ...change, value: typeof v === 'boolean' ? null : v })}
            />
          ) : (
            <Text size="sm">Entry: {change.value === null ? 'none' : String(change.value)}</Text>
          ),
        };
      }
      case 'opMode':
        return {
          title: 'Operating mode',
          editor: (
            <SegmentedControl
              aria-label="Operating mode to switch to"
              data={['On', 'Off']}
              value={change.opMode}
              disabled={disabled}
              onChange={(v) => onChange({ ...change, opMode: v === 'Off' ? 'Off' : 'On' })}
            />
          ),
        };
    }
  })();

  return (
    <Paper withBorder p="xs" data-testid="schedule-change">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Text>
          {editor}
        </Stack>
        {!disabled && (
          <ActionIcon variant="subtle" color="red" aria-label={`Remove ${title}`} onClick={onRemove}>
            <IconTrash size={16} />
          </ActionIcon>
        )}
      </Group>
    </Paper>
  );
}
