import { Alert, Code, List, Stack, Text, Title } from '@mantine/core';
import { CodeSample } from '../components/CodeSample';
import { SAMPLE_MANIFEST_JSON } from './sample-manifest';

/** create_new_exhibit */
export function CreateNewExhibitTopic() {
  return (
    <Stack gap="md">
      <Text>
        An exhibit in Plinth stands for one piece of software running in your gallery: a kiosk, a projection, a game.
        Each exhibit belongs to a site, which belongs to an organization.
      </Text>
      <Alert variant="light" color="blue">
        Only users with admin or write privileges can create exhibits. In Plinth that means a Developer or Manager
        role on the site or its organization. If you do not see the Create Exhibit button, ask a manager for access.
      </Alert>
      <Title order={3}>Steps</Title>
      <List type="ordered" spacing="xs">
        <List.Item>From Home, open the site the exhibit is in. The site opens on its Exhibits tab.</List.Item>
        <List.Item>Click Create Exhibit and type a name people in your team will recognise, such as &quot;Tide Pool Touch Table&quot;.</List.Item>
        <List.Item>
          Optionally fill in the MQTT IP address (<Code>###.###.###.###:####</Code>) if the exhibit also runs a local
          MQTT service that hardware should reach. You can leave it empty and set it later on the exhibit&apos;s Hardware tab.
        </List.Item>
        <List.Item>Click Create. The new exhibit opens on its Overview tab.</List.Item>
        <List.Item>
          Open the Auth tab. Plinth shows the exhibit ID and creates a first exhibit token. Copy the token and keep it
          somewhere safe: it is shown only once and disappears when you leave the page.
        </List.Item>
      </List>
      <Text>
        With the exhibit ID and token, your exhibit software can connect through the SDK. Next, describe what the
        exhibit reports and accepts in a manifest (see Prepare a manifest).
      </Text>
    </Stack>
  );
}

/** prepare_manifest */
export function PrepareManifestTopic() {
  return (
    <Stack gap="md">
      <Text>
        The manifest is a JSON file that tells Plinth what your exhibit can do. The console builds the exhibit&apos;s
        Overview, Controls and Settings tabs from it, so you never write console code yourself.
      </Text>
      <List spacing="xs">
        <List.Item>
          <strong>statuses</strong>: values the exhibit reports, such as its IP address or a visitor count. Types are
          String, Integer, Date and Color.
        </List.Item>
        <List.Item>
          <strong>controls</strong>: buttons staff can press in the console. A <Code>Single</Code> control is one
          button; a <Code>Group</Code> control is a named set of buttons (its <Code>items</Code>).
        </List.Item>
        <List.Item>
          <strong>settings</strong>: values staff can change and the exhibit applies: Toggle, Dropdown, TextInput,
          TextAreaInput, IntegerInput, SingleButtonGroup, FileSelection, Date and StrapiContent. Settings can also be
          organised in <Code>settingLists</Code> (named items that each hold the same settings) and{' '}
          <Code>settingGroups</Code> (navigation only).
        </List.Item>
      </List>
      <Text>
        Every entry has an <Code>id</Code> (unique, no slashes) and usually a <Code>display</Code> name. Use{' '}
        <Code>order</Code> to sort entries and <Code>enabledOpMode</Code> (<Code>On</Code> or <Code>Off</Code>) to make
        a control or setting usable only in one operating mode. Ids starting with <Code>$gb</Code> are hidden in the
        console.
      </Text>
      <CodeSample caption="manifest.json" code={SAMPLE_MANIFEST_JSON} />
      <Text>
        The SDK checks the manifest before sending it, and the server checks it again; an error names the entry at
        fault, for example <Code>settings[3] &quot;idle_timeout_secs&quot;: default must be an integer</Code>. When
        the exhibit is locked (manifestLocked), a new manifest cannot change the structure, but values can still be
        updated.
      </Text>
    </Stack>
  );
}

/** connect_exhibit */
export function ConnectExhibitTopic() {
  return (
    <Stack gap="md">
      <Text>
        Exhibit software connects to Plinth with the <Code>@plinth/sdk</Code> package for Node.js. You need the
        server&apos;s address, the exhibit ID and an exhibit token (both on the exhibit&apos;s Auth tab), and your
        manifest.
      </Text>
      <CodeSample caption="Install" code="npm install @plinth/sdk" />
      <CodeSample
        caption="exhibit.js"
        code={`import { Exhibit } from '@plinth/sdk';

const exhibit = new Exhibit({
  serverUrl: 'https://plinth.example.org',
  exhibitId: process.env.PLINTH_EXHIBIT_ID,
  token: process.env.PLINTH_EXHIBIT_TOKEN,
  manifest: './manifest.json',
});

// Authenticates, sends the manifest and receives every current setting value.
await exhibit.ready();
console.log('Connected to Plinth');`}
      />
      <Text>
        Keep the token out of your source code: pass it through an environment variable or a local file that is not
        committed. Once connected, the exhibit shows as Online in the console, and its online and offline changes are
        recorded.
      </Text>
      <Text>
        The SDK reconnects by itself with increasing waits if the network drops. Settings changed while the exhibit was
        offline are sent again when it reconnects, so you do not need to poll for them.
      </Text>
      <Text>
        If the exhibit stays offline: check the exhibit ID, check the token has not been deleted on the Auth tab, and
        check the exhibit&apos;s machine can reach the server address over HTTPS and WebSocket.
      </Text>
    </Stack>
  );
}

/** live_controls */
export function LiveControlsTopic() {
  return (
    <Stack gap="md">
      <Text>
        Controls are the buttons declared under <Code>controls</Code> in your manifest. Staff press them on the
        exhibit&apos;s Controls tab, and scheduled events can fire them too. Anyone who can see the exhibit can fire its
        controls, unless a per-user permission hides a control.
      </Text>
      <Text>
        Your exhibit receives each press as a <Code>control</Code> event (the <Code>CONTROL_RECEIVED</Code> event of
        the specification). For a group control the event also carries the item that was pressed.
      </Text>
      <CodeSample
        code={`exhibit.on('control', ({ id, itemId }) => {
  if (id === 'reload') restartContent();
  if (id === 'skip') nextScene();
  if (id === 'volume') {
    if (itemId === 'up') volumeUp();
    if (itemId === 'down') volumeDown();
    if (itemId === 'mute') toggleMute();
  }
});`}
      />
      <Text>
        A control press is only delivered to a connected exhibit: if the exhibit is offline, the console says so
        instead of pretending it worked. Controls bound to an operating mode (<Code>enabledOpMode</Code>) are disabled
        in the console while the exhibit is in the other mode.
      </Text>
    </Stack>
  );
}

/** update_settings */
export function UpdateSettingsTopic() {
  return (
    <Stack gap="md">
      <Text>
        Settings are values staff edit on the exhibit&apos;s Settings tab and your exhibit applies: the idle timeout,
        the kiosk name, which API to use. Developers and managers can edit them; viewers can read them.
      </Text>
      <Text>
        When someone clicks Save, Plinth stores the new value and sends a <Code>setting</Code> event (the{' '}
        <Code>SETTING_RECEIVED</Code> event of the specification) to the exhibit. If the exhibit is offline it gets
        every current value when it reconnects. The console shows whether the exhibit has applied a saved value or
        whether it is still pending.
      </Text>
      <CodeSample
        code={`// Read values at start-up (after ready()).
const timeout = exhibit.getSetting('idle_timeout_secs'); // 90
const all = exhibit.getSettings(); // { ux_mode: 'attract', kiosk_name: 'Kiosk 1', ... }

// React to changes made in the console.
exhibit.on('setting', ({ id, value }) => {
  if (id === 'idle_timeout_secs') resetIdleTimer(value);
  if (id === 'ux_mode') switchMode(value);
});`}
      />
      <Text>
        Values arrive typed as in the manifest: booleans for toggles, numbers for integers, the option id for dropdowns
        and button groups, ISO strings for dates. A leader exhibit can push its settings to its followers with Apply to
        followers.
      </Text>
    </Stack>
  );
}

/** update_statuses */
export function UpdateStatusesTopic() {
  return (
    <Stack gap="md">
      <Text>
        Statuses are read-only values your exhibit reports to the console, declared under <Code>statuses</Code> in the
        manifest. They appear on the Overview tab and update live while someone is watching.
      </Text>
      <CodeSample
        code={`exhibit.setStatus('ip_address', '10.0.4.21');
exhibit.setStatus('count', visitors);
exhibit.setStatus('last_interaction', new Date().toISOString());
exhibit.setStatus('primary_color', '#ff8800');

const count = exhibit.getStatus('count');`}
      />
      <Text>
        Send a status when it changes rather than on a timer. Use an Integer status for counters, a Date status (an ISO
        date string) for times and a Color status (a <Code>#rrggbb</Code> value) for colours; the console shows each in
        a suitable way. Long text is shortened on the Overview tab.
      </Text>
    </Stack>
  );
}
