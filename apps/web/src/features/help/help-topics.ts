import type { ComponentType } from 'react';
import {
  ConnectExhibitTopic,
  CreateNewExhibitTopic,
  LiveControlsTopic,
  PrepareManifestTopic,
  UpdateSettingsTopic,
  UpdateStatusesTopic,
} from './topics/exhibit-topics';
import { ConnectHardwareTopic, CreateNewHardwareTopic, PeripheralsTopic } from './topics/hardware-topics';
import type { HelpContext } from './topics/help-context';
import { BugTopic } from './topics/support-topics';

export type HelpCategory = 'Exhibits' | 'Hardware' | 'Support';

export type HelpTopic = {
  id: string;
  category: HelpCategory;
  title: string;
  Content: ComponentType<HelpContext>;
};

/** Every help topic in reading order (spec 2.14); previous and next follow this order. */
export const HELP_TOPICS: readonly HelpTopic[] = [
  { id: 'create_new_exhibit', category: 'Exhibits', title: 'Create a new exhibit', Content: CreateNewExhibitTopic },
  { id: 'prepare_manifest', category: 'Exhibits', title: 'Prepare a manifest', Content: PrepareManifestTopic },
  { id: 'connect_exhibit', category: 'Exhibits', title: 'Connect an exhibit', Content: ConnectExhibitTopic },
  { id: 'live_controls', category: 'Exhibits', title: 'Live controls', Content: LiveControlsTopic },
  { id: 'update_settings', category: 'Exhibits', title: 'Update settings', Content: UpdateSettingsTopic },
  { id: 'update_statuses', category: 'Exhibits', title: 'Update statuses', Content: UpdateStatusesTopic },
  { id: 'create_new_hardware', category: 'Hardware', title: 'Create new hardware', Content: CreateNewHardwareTopic },
  { id: 'connect_hardware', category: 'Hardware', title: 'Connect hardware', Content: ConnectHardwareTopic },
  { id: 'peripherals', category: 'Hardware', title: 'Peripherals', Content: PeripheralsTopic },
  { id: 'bug', category: 'Support', title: 'Report a bug', Content: BugTopic },
];

export const HELP_CATEGORIES: readonly HelpCategory[] = ['Exhibits', 'Hardware', 'Support'];

/** The position of a topic, or -1 when there is no topic of that id (the help page then shows not-found). */
export function helpTopicIndex(helpId: string | undefined): number {
  return HELP_TOPICS.findIndex((t) => t.id === helpId);
}
