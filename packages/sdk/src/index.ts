export { Exhibit, ExhibitError } from './exhibit.js';
export type { ContentEntry, ExhibitEvents, ExhibitOptions, FilesChange, LocalFile, OpModeValue, SettingListItemValues } from './exhibit.js';
export { ManifestSchema, parseManifest, SETTING_TYPES, STATUS_TYPES, CONTROL_TYPES } from '../../shared/src/api/manifest.js';
export { checkSettingValue, defaultSettingValue } from '../../shared/src/api/setting-value.js';
export type {
  Manifest,
  ManifestInput,
  WrappedManifestInput,
  ManifestSetting,
  SettingType,
  StatusType,
} from '../../shared/src/api/manifest.js';
export type { SettingValue } from '../../shared/src/api/setting-value.js';
export type { LogLevel } from '../../shared/src/values.js';
