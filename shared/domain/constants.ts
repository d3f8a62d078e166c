/** Business constants of spec section 9. */
export const APP_VERSION = "1.1.0";
export const PRODUCT_NAME = "Permitrack";
export const BRAND_PRIMARY = "#00A884";
export const BRAND_SECONDARY = "#005F4B";
/**
 * The brand green darkened for text and filled buttons on light backgrounds: 5.2:1 on white
 * (#00A884 is 3.0:1, under WCAG AA's 4.5:1). #00A884 stays the accent (logo, dark theme, charts).
 */
export const BRAND_PRIMARY_DARK = "#007C63";

export const EXPIRING_SOON_DAYS = 30;
export const REMINDER_DAYS = [30, 7, 1] as const;
export type ReminderDay = (typeof REMINDER_DAYS)[number];

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const RESET_REDIRECT_MS = 2000;

export const CSV_PREVIEW_ROWS = 10;
export const CSV_TEMPLATE_COLUMNS = [
  "project",
  "start_date",
  "project_number",
  "project_name",
  "phase",
  "aka",
  "client",
  "permit_number",
  "agency",
  "permit_name",
  "application_date",
  "status",
  "issue_date",
  "expiration_date",
  "record_type",
  "grantor_link",
] as const;

export const DRAWER_WIDTH = 400;
export const LOGO_HEIGHT = 60;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Header that every state-changing API call must carry (CSRF defence, see docs/decisions). */
export const CSRF_HEADER = "x-requested-with";
export const CSRF_HEADER_VALUE = "permitrack";

/** Header carrying the server's control token (from the data directory's lock file) from local CLI commands. */
export const CONTROL_TOKEN_HEADER = "x-permitrack-control-token";
