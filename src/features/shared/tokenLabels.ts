// A token's state in a few words, for the status bar, the Connections view and the commands'
// messages. Plain TypeScript (unit-tested in plain Node).
import type { TokenStatus } from '../../core/model';

const MINUTE = 60_000;

/** "23h 59m", "5m", "0m" for a duration in milliseconds (rounded down to the minute). */
export function formatRemaining(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / MINUTE));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h}h ${m}m` : `${m}m`;
}

/** The state in a few words: "valid 23h 59m", "refreshing", "expired", "sign-in held, next failure locks", "signed out" ... */
export function stateLabel(status: TokenStatus, now: number): string {
  switch (status.state) {
    case 'valid': {
      const left = status.expiresAt === undefined ? undefined : status.expiresAt - now;
      if (left !== undefined && left <= 0) return 'expired';
      return left === undefined ? 'valid' : `valid ${formatRemaining(left)}`;
    }
    case 'refreshing':
      return 'refreshing';
    case 'expired':
      return 'expired';
    case 'invalid':
      return 'invalid';
    case 'locked':
      // The service answers a locked account with plain SC001, so this state means the guard holds
      // sign-in because the next failure would lock the account, not that it is known to be locked.
      return 'sign-in held, next failure locks';
    case 'signed-out':
      return 'signed out';
    case 'none':
      return 'signed in, no token yet';
    case 'failed':
      return 'sign-in failed';
  }
}
