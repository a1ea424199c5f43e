/**
 * The sample manifest of the help pages: every kind of status, a single and a group control, and
 * the usual kiosk settings. A test checks it against the shared manifest schema.
 */
export const SAMPLE_MANIFEST = {
  statuses: [
    { id: 'ip_address', type: 'String', display: 'IP Address' },
    { id: 'count', type: 'Integer', display: 'Visitor Count', default: 0 },
    { id: 'last_interaction', type: 'Date', display: 'Last Interaction' },
    { id: 'primary_color', type: 'Color', display: 'Primary Color', default: '#1c7ed6' },
  ],
  controls: [
    { id: 'reload', type: 'Single', display: 'Reload' },
    { id: 'skip', type: 'Single', display: 'Skip Scene', enabledOpMode: 'On' },
    {
      id: 'volume',
      type: 'Group',
      display: 'Volume',
      items: [
        { id: 'down', display: 'Down', order: 1 },
        { id: 'mute', display: 'Mute', order: 2 },
        { id: 'up', display: 'Up', order: 3 },
      ],
    },
  ],
  settings: [
    {
      id: 'ux_mode',
      type: 'Dropdown',
      display: 'UX Mode',
      items: [
        { id: 'attract', display: 'Attract loop' },
        { id: 'guided', display: 'Guided tour' },
        { id: 'free_play', display: 'Free play' },
      ],
      default: 'attract',
    },
    { id: 'location', type: 'TextInput', display: 'Location', default: 'Gallery 2' },
    { id: 'kiosk_name', type: 'TextInput', display: 'Kiosk Name', default: 'Kiosk 1' },
    { id: 'idle_timeout_secs', type: 'IntegerInput', display: 'Idle Timeout (seconds)', default: 90, min: 10, max: 3600 },
    { id: 'prod_api', type: 'Toggle', display: 'Use Production API', default: true },
  ],
};

export const SAMPLE_MANIFEST_JSON = JSON.stringify(SAMPLE_MANIFEST, null, 2);
