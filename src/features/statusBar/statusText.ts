// Pure text for the token status (no vscode import, so it is unit-tested in plain Node).
import type { InterfaceId, LimiterState, TokenState, TokenStatus } from '../../core/model';

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

const ICONS: Readonly<Record<TokenState, string>> = {
  valid: '$(pass)',
  refreshing: '$(sync~spin)',
  expired: '$(warning)',
  invalid: '$(error)',
  locked: '$(lock)',
  'signed-out': '$(sign-in)',
  none: '$(key)',
  failed: '$(error)',
};

export function interfaceName(id: InterfaceId): string {
  return id === 'a' ? 'Interface A' : 'Interface B';
}

/** Status bar text, e.g. "$(pass) Business Data A: valid 23h 59m". */
export function statusBarText(status: TokenStatus, now: number, sandbox: boolean): string {
  const icon = status.state === 'valid' && status.expiresAt !== undefined && status.expiresAt <= now ? ICONS.expired : ICONS[status.state];
  const where = sandbox ? ' (sandbox)' : '';
  if (status.state === 'signed-out') return `${icon} Business Data: signed out`;
  return `${icon} Business Data ${status.interfaceId.toUpperCase()}${where}: ${stateLabel(status, now)}`;
}

/** Plain sentence for screen readers. */
export function statusAccessibilityLabel(status: TokenStatus, now: number, sandbox: boolean): string {
  if (status.state === 'signed-out') return 'Business Data: signed out. Activate to sign in or start the local sandbox.';
  return `Business Data ${interfaceName(status.interfaceId)}${sandbox ? ' on the local sandbox' : ''}: token ${stateLabel(status, now)}. Activate for actions.`;
}

/** Markdown rows for the tooltip: interface, masked account, issued, expires, calls made, limiter. */
export function statusTooltipMarkdown(status: TokenStatus, limiter: LimiterState | undefined, now: number, sandbox: boolean): string {
  const when = (ms: number | undefined): string => (ms === undefined ? '—' : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
  const rows: Array<[string, string]> = [
    ['Interface', `${interfaceName(status.interfaceId)}${sandbox ? ' (local sandbox)' : ''}`],
    ['Account', status.account ?? '—'],
    ['Token', stateLabel(status, now)],
    ['Issued', when(status.issuedAt)],
    ['Expires', when(status.expiresAt)],
    ['Calls made', String(status.callsMade)],
  ];
  if (status.credentialFailures > 0) rows.push(['Failed sign-ins in a row', String(status.credentialFailures)]);
  if (limiter) rows.push(['Limiter', `${limiter.active} active, ${limiter.queued} queued (limit ${limiter.qps}/s, ${limiter.concurrency} at once)`]);
  if (status.lastError) rows.push(['Last error', `${status.lastError.code ? `${status.lastError.code}: ` : ''}${status.lastError.text}`]);
  const table = ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${escapeMarkdown(v)} |`)].join('\n');
  return `**Business Data token**\n\n${table}\n\nClick for actions.`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`);
}
