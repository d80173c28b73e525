// Pure text for the token status (no vscode import, so it is unit-tested in plain Node).
import { safeLine } from '../../core/sanitize';
import type { LimiterState, TokenState, TokenStatus } from '../../core/model';
import { usageLine, type ContractUsage } from '../../core/contract/usage';
import { INTERFACES } from '../shared/interfaces';
import { stateLabel } from '../shared/tokenLabels';

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

/** The active connection: its name, and whether it is the local sandbox or a production account. */
export interface StatusPlace {
  readonly connection: string;
  readonly sandbox: boolean;
  readonly production: boolean;
}

/** Status bar text, e.g. "$(pass) test · Business Data A: valid 23h 59m" ("Business Data A (sandbox): …" on the sandbox). */
export function statusBarText(status: TokenStatus, now: number, place: StatusPlace): string {
  const icon = status.state === 'valid' && status.expiresAt !== undefined && status.expiresAt <= now ? ICONS.expired : ICONS[status.state];
  const named = place.sandbox ? '' : `${safeLine(place.connection)} · `;
  const where = place.sandbox ? ' (sandbox)' : '';
  if (status.state === 'signed-out') return `${icon} ${named}Business Data${where}: signed out`;
  return `${icon} ${named}Business Data ${INTERFACES[status.interfaceId].letter}${where}: ${stateLabel(status, now)}`;
}

/** Plain sentence for screen readers. */
export function statusAccessibilityLabel(status: TokenStatus, now: number, place: StatusPlace): string {
  const where = place.sandbox ? ' on the local sandbox' : ` on the connection ${safeLine(place.connection)}${place.production ? ', a production account' : ''}`;
  if (status.state === 'signed-out') return `Business Data${where}: signed out. Activate to switch connections, sign in or start the local sandbox.`;
  return `Business Data ${INTERFACES[status.interfaceId].name}${where}: token ${stateLabel(status, now)}. Activate to switch connections.`;
}

/** Markdown rows for the tooltip: connection, interface, masked account, issued, expires, calls made, limiter, contract. */
export function statusTooltipMarkdown(status: TokenStatus, limiter: LimiterState | undefined, now: number, place: StatusPlace, usage?: ContractUsage): string {
  const when = (ms: number | undefined): string => (ms === undefined ? '—' : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'));
  const rows: Array<[string, string]> = [
    ['Connection', place.sandbox ? 'local sandbox' : `${safeLine(place.connection)}${place.production ? ' (production)' : ''}`],
    ['Interface', `${INTERFACES[status.interfaceId].name}${place.sandbox ? ' (local sandbox)' : ''}`],
    ['Account', status.account ?? '—'],
    ['Token', stateLabel(status, now)],
    ['Issued', when(status.issuedAt)],
    ['Expires', when(status.expiresAt)],
    ['Calls made', String(status.callsMade)],
  ];
  if (status.credentialFailures > 0) rows.push(['Failed sign-ins in a row', String(status.credentialFailures)]);
  if (limiter) rows.push(['Limiter', `${limiter.active} active, ${limiter.queued} queued (limit ${limiter.qps}/s, ${limiter.concurrency} at once)`]);
  if (limiter?.learned) rows.push(['Limits', limitsText(limiter)]);
  if (usage) rows.push(['Contract', usageLine(usage)]);
  if (status.lastError) rows.push(['Last error', safeLine(`${status.lastError.code ? `${status.lastError.code}: ` : ''}${status.lastError.text}`)]);
  const table = ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${escapeMarkdown(v)} |`)].join('\n');
  return `**Business Data token**\n\n${table}\n\nClick to switch connections.`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]|<>]/g, (c) => `\\${c}`);
}

/** "learned: 50/s, 5 at once" (or "finding: …" before the service first refused), with the caps when set. */
export function limitsText(limiter: LimiterState): string {
  const l = limiter.learned;
  if (!l) return '';
  const per = (n: number): string => String(Math.round(n * 10) / 10);
  const caps = limiter.caps && (Number.isFinite(limiter.caps.qps) || Number.isFinite(limiter.caps.concurrency))
    ? ` (caps: ${Number.isFinite(limiter.caps.qps) ? `${per(limiter.caps.qps)}/s` : 'auto'}, ${Number.isFinite(limiter.caps.concurrency) ? `${limiter.caps.concurrency} at once` : 'auto'})`
    : '';
  return `${l.exact ? 'learned' : 'finding'}: ${per(l.qps)}/s, ${l.concurrency} at once${caps}`;
}
