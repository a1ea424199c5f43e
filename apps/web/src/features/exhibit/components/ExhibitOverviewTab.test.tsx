import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { EXHIBIT, exhibitBody, manifestBody, newQueryClient, renderWith, serve, setting } from '../test/fixtures';
import { ExhibitOverviewTab } from './ExhibitOverviewTab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExhibitOverviewTab', () => {
  it('shows Status, Settings and Hardware, cuts text at 45 characters and renders HTML as text', () => {
    serve(() => undefined);
    const long = 'A'.repeat(50);
    const queryClient = newQueryClient();
    queryClient.setQueryData(
      queryKeys.exhibitManifest(EXHIBIT),
      manifestBody({
        statuses: [
          { id: 's1', manifestId: 'visitor_count', type: 'Integer', display: 'Visitors', default: 0, value: 42, order: 0, updatedAt: null },
          { id: 's2', manifestId: 'message', type: 'String', display: 'Message', default: '', value: long, order: 1, updatedAt: null },
          { id: 's3', manifestId: '$gb_secret', type: 'String', display: 'Secret', default: '', value: 'x', order: 2, updatedAt: null },
        ],
        settings: [
          setting({ manifestId: 'sound', display: 'Sound', type: 'Toggle', value: true }),
          setting({ manifestId: 'intro', display: 'Intro', type: 'TextAreaInput', value: '<p><b>Hello</b> <script>alert(1)</script>world</p>' }),
        ],
      }),
    );
    renderWith(<ExhibitOverviewTab exhibit={exhibitBody({ mqttPath: '10.0.0.5:1883' })} />, queryClient);
    const status = screen.getByRole('region', { name: 'Status' });
    expect(within(status).getByText('42')).toBeInTheDocument();
    expect(within(status).getByText(`${'A'.repeat(45)}…`)).toHaveAttribute('title', long);
    expect(within(status).queryByText('Secret')).not.toBeInTheDocument();
    const settings = screen.getByRole('region', { name: 'Settings' });
    expect(within(settings).getByText('On')).toBeInTheDocument();
    expect(within(settings).getByText('Hello alert(1)world')).toBeInTheDocument();
    expect(document.querySelector('script')).toBeNull();
    const hardware = screen.getByRole('region', { name: 'Hardware' });
    expect(within(hardware).getByText('MQTT IP Address')).toBeInTheDocument();
    expect(within(hardware).getByText('10.0.0.5:1883')).toBeInTheDocument();
  });
});
