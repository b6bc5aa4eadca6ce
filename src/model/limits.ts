/**
 * Limits and protocol periods clients read from the register response (spec 4.19, 8) and that
 * the sending, typing and channel endpoints enforce. Channel limits live in channelSettings.ts.
 */
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_TOPIC_LENGTH = 60;

/** Typing protocol (spec 4.4): resend start, send stop, expire an indicator. */
export const TYPING_STARTED_WAIT_PERIOD_MS = 10_000;
export const TYPING_STOPPED_WAIT_PERIOD_MS = 5_000;
export const TYPING_STARTED_EXPIRY_PERIOD_MS = 15_000;
