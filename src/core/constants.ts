// Protocol constants and defaults, in one place: the client, the command line, the extension and the
// sandbox all read them from here (service spec sections 2, 4, 8 and 9).

/** Spec 9: Interface A paths carry v1. */
export const VERSION_A = 'v1';
/** Spec 4.2 / 9: the Interface B authentication path's version segment. */
export const AUTH_VERSION_B = 'V2.0';
/** Spec 4.2 / 9: the organizations path's version segment. */
export const ORG_VERSION_B = 'V4.0';
/** Spec 4.1: the view shown for IP lookups. */
export const DEFAULT_VIEW = 'standard';
/** Spec 4.2: the match type of the shown organizations call. */
export const DEFAULT_MATCH_TYPE = 'Advanced';
/** Spec 2.2 / 8: tokens last 24 hours. */
export const TOKEN_LIFETIME_SECONDS = 86_400;
export const TOKEN_LIFETIME_MS = TOKEN_LIFETIME_SECONDS * 1000;
/** Spec 3 / 8: the third consecutive failed authentication locks an Interface B account. */
export const LOCKOUT_AFTER_FAILURES = 3;
/** Limits a client starts from when none are configured (spec 8: the numeric values are not published). */
export const DEFAULT_LIMITS = { qps: 10, concurrency: 4 } as const;
