import { Alert, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import type { Control, Exhibit, OpMode } from '@plinth/shared';
import { GuardedButton } from '../../../components/GuardedButton';
import { errorText } from '../../../lib/mutation-state';
import { useFireControl } from '../api/fire-control';
import { useExhibitManifest } from '../api/get-exhibit-manifest';
import { isHiddenId } from '../lib/settings-tree';
import { ManifestPlaceholder } from './ManifestPlaceholder';

type Outcome = { ok: boolean; text: string } | null;

/** Why a control the caller's granular level makes read-only is disabled (a hidden one is not in the manifest at all). */
export const READ_ONLY_CONTROL_HINT = 'You can see this control but not use it';

/** A read-only control's buttons, with the reason on hover (a disabled button gets no pointer events, so its wrapper listens). */
function ReadOnlyHint({ isReadOnly, children }: { isReadOnly: boolean; children: ReactNode }) {
  if (!isReadOnly) return children;
  return (
    <Tooltip label={READ_ONLY_CONTROL_HINT}>
      <span data-testid="read-only-control" style={{ display: 'inline-block' }}>
        {children}
      </span>
    </Tooltip>
  );
}

/** True when a control bound to an op mode cannot be used in the current one. */
function isBlockedByOpMode(control: Control, opMode: OpMode): boolean {
  return control.enabledOpMode !== 'none' && control.enabledOpMode !== opMode;
}

/**
 * The controls tab (spec 2.3): single controls as buttons, groups as named sets of buttons.
 * A control bound to the other op mode, or one the caller may not fire (its `write` flag, from
 * the caller's role and granular level), is disabled. The answer
 * of each call is shown: delivered, or why not (an offline exhibit answers 409).
 */
export function ExhibitControlsTab({ exhibit }: { exhibit: Exhibit }) {
  const manifest = useExhibitManifest(exhibit.id);
  const fireMutation = useFireControl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  useEffect(() => {
    if (manifest.isError) console.error('Could not get controls for this exhibit', manifest.error);
  }, [manifest.isError, manifest.error]);

  if (!manifest.data) return <ManifestPlaceholder manifest={manifest} what="controls" />;
  const controls = manifest.data.manifest.controls.filter((c) => !isHiddenId(c.manifestId)).sort((a, b) => a.order - b.order);
  if (!controls.length) return <Text c="dimmed">This exhibit has no controls.</Text>;

  const fire = (control: Control, itemId?: string, label = control.display) => {
    setOutcome(null);
    // Each press reports its own answer (mutate's callbacks would only report the latest press).
    fireMutation.mutateAsync({ exhibitId: exhibit.id, controlId: control.manifestId, itemId }).then(
      () => setOutcome({ ok: true, text: `${label} was sent to the exhibit.` }),
      (e: unknown) => setOutcome({ ok: false, text: errorText(e, 'The control could not be sent.') }),
    );
  };

  const hint = (control: Control) => (control.write && isBlockedByOpMode(control, exhibit.opMode) ? `Available when the op mode is ${control.enabledOpMode}.` : null);

  return (
    <Stack gap="md">
      {outcome && (
        <Alert
          color={outcome.ok ? 'teal' : 'red'}
          variant="light"
          role={outcome.ok ? 'status' : 'alert'}
          withCloseButton
          onClose={() => setOutcome(null)}
        >
          {outcome.text}
        </Alert>
      )}
      <Group align="flex-start">
        {controls.map((control) => {
          const disabled = !control.write || isBlockedByOpMode(control, exhibit.opMode);
          const note = hint(control);
          if (control.type === 'Single') {
            return (
              <Stack key={control.id} gap={2}>
                <ReadOnlyHint isReadOnly={!control.write}>
                  <GuardedButton disabled={disabled} onClick={() => fire(control)}>
                    {control.display}
                  </GuardedButton>
                </ReadOnlyHint>
                {note && (
                  <Text size="xs" c="dimmed">
                    {note}
                  </Text>
                )}
              </Stack>
            );
          }
          return (
            <Paper key={control.id} withBorder p="sm" role="group" aria-label={control.display}>
              <Title order={5} mb="xs">
                {control.display}
              </Title>
              <ReadOnlyHint isReadOnly={!control.write}>
                <Group gap="xs">
                  {[...control.items]
                    .filter((item) => !isHiddenId(item.id))
                    .sort((a, b) => a.order - b.order)
                    .map((item) => (
                      <GuardedButton key={item.uniqueId} variant="light" disabled={disabled} onClick={() => fire(control, item.id, item.display)}>
                        {item.display}
                      </GuardedButton>
                    ))}
                </Group>
              </ReadOnlyHint>
              {note && (
                <Text size="xs" c="dimmed" mt={4}>
                  {note}
                </Text>
              )}
            </Paper>
          );
        })}
      </Group>
    </Stack>
  );
}
