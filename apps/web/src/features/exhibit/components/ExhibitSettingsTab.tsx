import { ActionIcon, Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconChevronRight, IconFolder, IconList } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { SETTINGS_SAVED_BANNER_MS, SETTING_IDS, type Exhibit, type ExhibitSetting, type OpMode, type SettingValue } from '@plinth/shared';
import { ConfirmDialog } from '../../../components/dialogs/ConfirmDialog';
import { useOrganization } from '../../../lib/api/get-organization';
import { countLabel } from '../../../lib/count-label';
import { useExhibitManifest } from '../api/get-exhibit-manifest';
import { useSaveSettingEdits } from '../api/save-setting-edits';
import { useSyncFollowers } from '../api/sync-followers';
import {
  editKey,
  pendingValueError,
  resolveSettingsPath,
  visibleGroups,
  visibleLists,
  visibleSettings,
  type EditTarget,
  type PendingEdit,
  type SettingsPath,
} from '../lib/settings-tree';
import { ManifestPlaceholder } from './ManifestPlaceholder';
import { SettingField } from './settings/SettingField';
import { SettingListView } from './settings/SettingListView';

type Banner = { color: 'teal' | 'yellow' | 'red'; title?: string; text: string } | null;

export const APPLY_TO_FOLLOWERS_SUCCESS = 'The current settings have been applied to all follower exhibits.';
/** Said when a live op-mode change (spec 2.4) clears edits that were not saved. */
export const opModeDiscardText = (mode: OpMode) => `The exhibit switched to ${mode} mode, so your unsaved setting edits were discarded.`;
export const APPLY_TO_FOLLOWERS_FAILURE = 'The current settings could not be applied to all follower exhibits. Please try again later.';
/** Under a setting the caller's role or granular level lets them read but not change (hidden ones are not in the manifest). */
export const READ_ONLY_SETTING_HINT = 'You can see this setting but not change it.';

/** The content service URL from the organization's settings, when the caller may read them. */
function contentServiceUrl(settings: { idString: string; value: string }[] | undefined): string | null {
  const raw = settings?.find((s) => s.idString === SETTING_IDS.contentManager)?.value;
  if (!raw) return null;
  try {
    const url = (JSON.parse(raw) as { url?: unknown }).url;
    return typeof url === 'string' && url.trim() ? url.trim() : null;
  } catch {
    return null;
  }
}

/** What Apply to followers will do, and to how many exhibits (it replaces their settings). */
export function followersQuestion(exhibit: Pick<Exhibit, 'name' | 'followers'>): string {
  const count = exhibit.followers.length;
  const names = exhibit.followers.map((f) => f.name).join(', ');
  return `Replace the settings of ${count} follower exhibit${count === 1 ? '' : 's'} (${names}) with the current settings of ${exhibit.name}?`;
}

const isBlocked = (mode: OpMode | 'none', current: OpMode) => mode !== 'none' && mode !== current;

/**
 * The settings tab (spec 2.4): nested groups and lists under an "All Settings /" breadcrumb,
 * edits held as Modified until Save or Revert, Apply to followers on leaders, follower, write
 * right and op-mode restrictions, and per value whether the exhibit has applied it. Reports
 * whether edits are pending, so the screen can ask before leaving.
 */
export function ExhibitSettingsTab({ exhibit, onDirtyChange }: { exhibit: Exhibit; onDirtyChange: (dirty: boolean) => void }) {
  const manifest = useExhibitManifest(exhibit.id);
  const organization = useOrganization(exhibit.organizationId);
  const save = useSaveSettingEdits(exhibit.id);
  const sync = useSyncFollowers();
  const [path, setPath] = useState<SettingsPath>([]);
  const [pending, setPending] = useState<Record<string, PendingEdit>>({});
  const [banner, setBanner] = useState<Banner>(null);
  const [isConfirmingSync, setConfirmingSync] = useState(false);
  const busy = save.isPending ? 'save' : sync.isPending ? 'sync' : null;

  const isFollower = exhibit.leaderId !== null;
  const isLeader = exhibit.followers.length > 0;
  const opMode = exhibit.opMode;
  const dirty = Object.keys(pending).length > 0;

  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  // Changing the op mode clears pending edits and navigation (spec 2.4), and says so when edits were lost.
  const lastMode = useRef(opMode);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    if (lastMode.current === opMode) return;
    lastMode.current = opMode;
    if (dirtyRef.current) setBanner({ color: 'yellow', title: 'Unsaved edits discarded', text: opModeDiscardText(opMode) });
    setPending({});
    setPath([]);
  }, [opMode]);

  useEffect(() => {
    if (banner?.color !== 'teal') return;
    const t = setTimeout(() => setBanner(null), SETTINGS_SAVED_BANNER_MS);
    return () => clearTimeout(t);
  }, [banner]);

  useEffect(() => {
    if (manifest.isError) console.error('Could not get settings information for this exhibit', manifest.error);
  }, [manifest.isError, manifest.error]);

  if (!manifest.data) return <ManifestPlaceholder manifest={manifest} what="settings" />;

  const location = resolveSettingsPath(manifest.data.manifest, path);
  const pendingList = Object.values(pending);
  const invalid = pendingList.some((p) => {
    const setting = findSettingFor(p);
    return setting ? pendingValueError(setting, p.value) !== null : false;
  });

  function findSettingFor(target: EditTarget): ExhibitSetting | undefined {
    const data = manifest.data!.manifest;
    if (target.listId) {
      const walkLists = (lists: typeof data.settingLists, groups: typeof data.settingGroups): ExhibitSetting | undefined => {
        for (const l of lists) {
          if (l.manifestId !== target.listId) continue;
          const item = l.settinglistitems.find((i) => i.listName === target.listName);
          return item?.items.find((s) => s.manifestId === target.settingId);
        }
        for (const g of groups) {
          const found = walkLists(g.settingLists, g.settingGroups);
          if (found) return found;
        }
        return undefined;
      };
      return walkLists(data.settingLists, data.settingGroups);
    }
    const walk = (c: {
      settings: ExhibitSetting[];
      strapiContent: ExhibitSetting[];
      settingGroups: typeof data.settingGroups;
    }): ExhibitSetting | undefined =>
      [...c.settings, ...c.strapiContent].find((s) => s.manifestId === target.settingId) ?? c.settingGroups.map(walk).find(Boolean);
    return walk(data);
  }

  const edit = (setting: ExhibitSetting, target: EditTarget, value: SettingValue) => {
    const key = editKey(target);
    setPending((current) => {
      const next = { ...current };
      if (value === setting.value) delete next[key];
      else next[key] = { ...target, type: setting.type, value };
      return next;
    });
  };

  const handleRevert = () => setPending({});

  const handleSave = async () => {
    setBanner(null);
    const { failed } = await save.mutateAsync(pendingList);
    setPending(Object.fromEntries(failed.map(({ edit }) => [editKey(edit), edit])));
    setBanner(
      failed.length
        ? {
            color: 'red',
            title: 'Some settings were not saved',
            text: failed.map((f) => f.message).join(' '),
          }
        : { color: 'teal', text: 'Settings saved.' },
    );
  };

  const handleSync = async () => {
    setBanner(null);
    try {
      await sync.mutateAsync(exhibit.id);
      setBanner({ color: 'teal', text: APPLY_TO_FOLLOWERS_SUCCESS });
    } catch (e) {
      console.error('Apply to followers failed', e);
      setBanner({
        color: 'red',
        title: 'There was a problem',
        text: APPLY_TO_FOLLOWERS_FAILURE,
      });
    }
  };

  const orgUrl = contentServiceUrl(organization.data?.organizationsettings);
  const fieldFor = (setting: ExhibitSetting, target: EditTarget, isApplied: boolean, listBlocked: boolean) => {
    const p = pending[editKey(target)];
    const blockedByMode = listBlocked || isBlocked(setting.enabledOpMode, opMode);
    const reason = isFollower
      ? null
      : !setting.write
        ? READ_ONLY_SETTING_HINT
        : blockedByMode
          ? `Editable when the op mode is ${opMode === 'On' ? 'Off' : 'On'}.`
          : null;
    return (
      <SettingField
        key={editKey(target)}
        exhibitId={exhibit.id}
        setting={setting}
        value={p ? p.value : setting.value}
        isModified={Boolean(p)}
        isApplied={isApplied}
        disabled={isFollower || !setting.write || blockedByMode}
        disabledReason={reason}
        onChange={(value) => edit(setting, target, value)}
        organizationId={exhibit.organizationId}
        contentServiceUrl={orgUrl}
      />
    );
  };

  const goTo = (next: SettingsPath) => setPath(next);
  const crumbs = location.crumbs;

  const body = (() => {
    if (location.kind === 'item') {
      const { list, item } = location;
      const blocked = isBlocked(list.enabledOpMode, opMode);
      const settings = item.items.filter((s) => !s.manifestId.startsWith('$gb')).sort((a, b) => a.order - b.order);
      return (
        <Stack gap="md">
          {settings.map((s) =>
            fieldFor(
              s,
              {
                settingId: s.manifestId,
                listId: list.manifestId,
                listName: item.listName,
              },
              item.applied,
              blocked,
            ),
          )}
        </Stack>
      );
    }
    if (location.kind === 'list') {
      const { list } = location;
      const listPath = location.path;
      return (
        <SettingListView
          key={list.manifestId}
          exhibitId={exhibit.id}
          list={list}
          canChange={!isFollower && list.write && !isBlocked(list.enabledOpMode, opMode)}
          onOpen={(listName) => goTo([...listPath, { kind: 'item', listName }])}
        />
      );
    }
    const { container } = location;
    const settings = visibleSettings(container);
    const groups = visibleGroups(container);
    const lists = visibleLists(container);
    if (!settings.length && !groups.length && !lists.length) return <Text c="dimmed">There are no settings here.</Text>;
    return (
      <Stack gap="md">
        {settings.map((s) => fieldFor(s, { settingId: s.manifestId }, s.applied, false))}
        {groups.map((g) => (
          <Paper key={g.id} withBorder p={0}>
            <Button
              variant="subtle"
              fullWidth
              justify="space-between"
              leftSection={<IconFolder size={16} />}
              rightSection={<IconChevronRight size={16} />}
              onClick={() => goTo([...location.path, { kind: 'group', id: g.manifestId }])}
            >
              {g.groupDisplay}
            </Button>
          </Paper>
        ))}
        {lists.map((l) => (
          <Paper key={l.id} withBorder p={0}>
            <Button
              variant="subtle"
              fullWidth
              justify="space-between"
              leftSection={<IconList size={16} />}
              rightSection={
                <Group gap={4}>
                  <Badge variant="light" size="sm">
                    {countLabel(l.listItemCount, 'item')}
                  </Badge>
                  <IconChevronRight size={16} />
                </Group>
              }
              onClick={() => goTo([...location.path, { kind: 'list', id: l.manifestId }])}
            >
              {l.listDisplay}
            </Button>
          </Paper>
        ))}
      </Stack>
    );
  })();

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Tooltip label="Back">
            <ActionIcon variant="subtle" aria-label="Back" disabled={location.path.length === 0} onClick={() => goTo(location.path.slice(0, -1))}>
              <IconArrowLeft size={18} />
            </ActionIcon>
          </Tooltip>
          <Text size="sm" component="nav" aria-label="Settings navigation" style={{ overflowWrap: 'anywhere' }}>
            {crumbs.length === 0 ? (
              'All Settings /'
            ) : (
              <Anchor component="button" type="button" size="sm" onClick={() => goTo([])}>
                All Settings /
              </Anchor>
            )}
            {crumbs.map((crumb, i) => {
              const isLast = i === crumbs.length - 1;
              return (
                <span key={`${i}-${crumb}`}>
                  {' '}
                  {isLast ? (
                    <Text component="span" size="sm" fw={500}>
                      {crumb}
                    </Text>
                  ) : (
                    <Anchor component="button" type="button" size="sm" onClick={() => goTo(location.path.slice(0, i + 1))}>
                      {crumb}
                    </Anchor>
                  )}
                  {isLast ? '' : ' /'}
                </span>
              );
            })}
          </Text>
        </Group>
        <Group gap="xs">
          <Button variant="default" disabled={isFollower || !dirty || busy !== null} onClick={handleRevert}>
            Revert
          </Button>
          {isLeader && (
            <Button variant="light" disabled={dirty || busy !== null} loading={busy === 'sync'} onClick={() => setConfirmingSync(true)}>
              Apply to followers
            </Button>
          )}
          <Button disabled={isFollower || !dirty || invalid || busy !== null} loading={busy === 'save'} onClick={() => void handleSave()}>
            Save
          </Button>
        </Group>
      </Group>
      {isFollower && (
        <Alert variant="light" color="blue">
          This exhibit follows {exhibit.leader?.name ?? 'its leader'}: it takes its settings from the leader, so they cannot be changed here.
        </Alert>
      )}
      {exhibit.manifestLocked && (
        <Alert variant="light" color="gray">
          The manifest is locked: the exhibit cannot change which settings exist, but their values can still be updated.
        </Alert>
      )}
      {banner && (
        <Alert
          variant="light"
          color={banner.color}
          title={banner.title}
          role={banner.color === 'teal' ? 'status' : 'alert'}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setBanner(null)}
        >
          {banner.text}
        </Alert>
      )}
      {body}
      <ConfirmDialog
        opened={isConfirmingSync}
        onClose={() => setConfirmingSync(false)}
        title="Apply to followers"
        message={followersQuestion(exhibit)}
        confirmLabel="Apply"
        cancelLabel="Cancel"
        onConfirm={handleSync}
        mutation={{ isPending: sync.isPending, error: null }}
      />
    </Stack>
  );
}
