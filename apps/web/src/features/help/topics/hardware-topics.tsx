import { Alert, Code, List, Stack, Table, Text, Title } from '@mantine/core';
import { CodeSample } from '../components/CodeSample';
import type { HelpContext } from './help-context';

/** create_new_hardware */
export function CreateNewHardwareTopic() {
  return (
    <Stack gap="md">
      <Text>
        Hardware in Plinth is a microcontroller board (buttons, relays, LEDs, sensors) that talks to Plinth over MQTT.
        Each hardware unit belongs to a site and can be connected to one of the site&apos;s exhibits.
      </Text>
      <Alert variant="light" color="blue">
        Only users with admin or write privileges can create hardware. In Plinth that means a Developer or Manager role
        on the site or its organization.
      </Alert>
      <Title order={3}>Steps</Title>
      <List type="ordered" spacing="xs">
        <List.Item>From Home, open the site, then its Hardware tab.</List.Item>
        <List.Item>Click Create Hardware and give the board a name, such as &quot;Tide Pool Button Board&quot;.</List.Item>
        <List.Item>
          Plinth opens the new hardware on its Auth tab with the hardware ID and a first hardware token. Save the token
          somewhere safe: it is shown only once and disappears when you leave the page.
        </List.Item>
        <List.Item>
          To attach the board to an exhibit, use Connect to Exhibit on the hardware&apos;s Overview tab, or Connect
          hardware on the exhibit&apos;s Hardware tab.
        </List.Item>
      </List>
    </Stack>
  );
}

/** connect_hardware */
export function ConnectHardwareTopic({ mqttPort }: HelpContext) {
  return (
    <Stack gap="md">
      <Text>
        Boards connect to the Plinth MQTT broker on port <Code>{mqttPort}</Code> of your Plinth server. Each board
        signs in with its own credentials:
      </Text>
      <Table withTableBorder withColumnBorders maw={560}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th>Host</Table.Th>
            <Table.Td>your Plinth server&apos;s host name</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Port</Table.Th>
            <Table.Td>
              <Code>{mqttPort}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Username</Table.Th>
            <Table.Td>the hardware ID (Auth tab)</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Password</Table.Th>
            <Table.Td>a hardware token (Auth tab)</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text>
        A board may publish and subscribe only under its own prefix <Code>plinth/hw/&lt;hardwareId&gt;/</Code>. The
        channels under it are:
      </Text>
      <List spacing="xs">
        <List.Item>
          <Code>status</Code>: publish <Code>{'{"online":true}'}</Code> after connecting, and set the same
          topic with <Code>{'{"online":false}'}</Code> as the MQTT last will, so Plinth marks the board offline when it
          drops.
        </List.Item>
        <List.Item>
          <Code>announce</Code>: firmware versions (<Code>plinth_fw</Code>, <Code>user_fw</Code>), IP and MAC address,
          and the peripherals with their props. Send it after every connect.
        </List.Item>
        <List.Item>
          <Code>heartbeat</Code>: voltage, temperature, uptime in minutes, exhibit state and exhibit IP, sent regularly.
          A board that misses its heartbeats is shown offline.
        </List.Item>
        <List.Item>
          <Code>prop</Code>: a prop&apos;s new value whenever it changes on the board.
        </List.Item>
        <List.Item>
          <Code>log</Code>: log lines, shown on the hardware&apos;s Logs tab.
        </List.Item>
        <List.Item>
          <Code>cmd</Code> (subscribe): commands from Plinth such as <Code>reboot</Code>, <Code>identify</Code>,{' '}
          <Code>get</Code> (send every value again), prop sets and firmware updates. Answer each on <Code>result</Code>{' '}
          with the command&apos;s correlation id.
        </List.Item>
      </List>
      <CodeSample
        caption="Trying it from a terminal (mosquitto clients)"
        code={`mosquitto_sub -h plinth.example.org -p ${mqttPort} \\
  -u "<hardwareId>" -P "<hardwareToken>" -t "plinth/hw/<hardwareId>/cmd"

mosquitto_pub -h plinth.example.org -p ${mqttPort} \\
  -u "<hardwareId>" -P "<hardwareToken>" -t "plinth/hw/<hardwareId>/status" -m '{"online":true}'`}
      />
      <Text>
        No board at hand? The Plinth hardware simulator behaves like a board with every peripheral type, and is the
        quickest way to try the hardware screens.
      </Text>
    </Stack>
  );
}

/** peripherals */
export function PeripheralsTopic() {
  return (
    <Stack gap="md">
      <Text>
        The Peripherals tab of a hardware unit lists the peripherals the board announced and their props (the values
        each peripheral exposes). Values update live as the board reports them.
      </Text>
      <Title order={3}>Debug mode</Title>
      <Text>
        Normally a board is driven by its exhibit. Turning on debug mode hands control to the console, so you can test
        peripherals by hand; it changes where the hardware is connected, so the console asks you to confirm. The board
        controls and the prop inputs are enabled only while debug mode is on and the board is online. Developers and
        managers can switch debug mode. Remember to turn it off again when you are done.
      </Text>
      <Text>
        The default board controls are Reboot, Identify (the board blinks so you can find it) and Sync Hardware Values
        (the board sends every value again; needs Plinth firmware 46 or later).
      </Text>
      <Title order={3}>Prop types</Title>
      <List spacing="xs">
        <List.Item>
          <strong>button</strong>: read-only; a blinker lights for one second each time it is pressed.
        </List.Item>
        <List.Item>
          <strong>toggle</strong>: on or off; the console sends the flipped value (0 or 1).
        </List.Item>
        <List.Item>
          <strong>trigger</strong>: fires once; the console sends 1.
        </List.Item>
        <List.Item>
          <strong>text</strong>: characters stored with a closing null; the maximum length includes it.
        </List.Item>
        <List.Item>
          <strong>number, int, uint</strong>: numbers shown as decimal, hex or binary (<Code>displayType</Code>). Values
          outside the prop&apos;s min and max are refused, and unsigned props accept no negatives.
        </List.Item>
        <List.Item>
          <strong>led</strong>: brightness and an RGB colour (four values). <strong>addressable_led</strong>: index,
          brightness, white and an RGB colour (six values).
        </List.Item>
      </List>
      <Text>
        Props marked <Code>hide</Code> are not shown, and props that are not <Code>settable</Code> are read-only.
      </Text>
    </Stack>
  );
}
