export { Exhibit, ExhibitError } from './exhibit.js';
export type { ExhibitEvents, ExhibitOptions, OpModeValue, SettingListItemValues } from './exhibit.js';
export {
  ManifestSchema,
  parseManifest,
  checkSettingValue,
  defaultSettingValue,
  SETTING_TYPES,
  STATUS_TYPES,
  CONTROL_TYPES,
} from '../../shared/src/api/manifest.js';
export type {
  Manifest,
  ManifestInput,
  WrappedManifestInput,
  ManifestSetting,
  SettingValue,
  SettingType,
  StatusType,
} from '../../shared/src/api/manifest.js';
export type { LogLevel } from '../../shared/src/sdk-protocol.js';
