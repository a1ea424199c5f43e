/** Business constants of the spec (section 9 of both documents). */
export const LIST_STALE_TIME_MS = 5 * 60 * 1000;
export const CLICK_GUARD_MS = 1000;
export const SETTINGS_SAVED_BANNER_MS = 3000;
export const NETWORK_ERROR_BANNER_MS = 5000;
export const BREAKPOINT_NARROW_PX = 800;
export const BREAKPOINT_MEDIUM_PX = 1000;
export const GREETING_MORNING_BEFORE_HOUR = 12;
export const GREETING_AFTERNOON_BEFORE_HOUR = 16;
export const TOKEN_DATE_LENGTH = 10;
export const ORG_FILE_PREFIX = '[ORG]';
export const OVERVIEW_TRUNCATE_CHARS = 45;
export const RICH_TEXT_DEBOUNCE_MS = 1000;
export const BLINK_MS = 1000;
export const LOG_PAGE_SIZE = 20;
export const LIVE_LOGS_REFRESH_MS = 58_000;
export const SYNC_HARDWARE_MIN_FW = 46;
export const MQTT_DEFAULT_PORT = 1883;
export const CONTENT_PAGE_SIZE = 10;
export const MAX_NAME_LENGTH = 200;

/** How long account links stay valid. */
export const RESET_LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const CREATE_ACCOUNT_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Session lifetime. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'plinth_session';

export const LOGIN_METHODS = ['GENERIC', 'GOOGLE_AUTH'] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

export const OP_MODES = ['On', 'Off'] as const;
export type OpMode = (typeof OP_MODES)[number];

/** Default allowed prefix of the external analytics report URL. */
export const DEFAULT_REPORT_URL_PREFIX = 'https://lookerstudio.google.com/embed/';
