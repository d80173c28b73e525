// A connection in a few words, for the status bar, the Connections view and the Switch Connection
// pick. Plain TypeScript (unit-tested in plain Node).
import { exactOrigin } from '../../core/protocol/credentialOrigins';
import type { TokenStatus } from '../../core/model';
import { INTERFACES } from './interfaces';
import { stateLabel } from './tokenLabels';

/** The distinct hosts of a connection's addresses ("api.example.com", "http://127.0.0.1:8080"), or "no address set". */
export function hostsLabel(e: { readonly authUrl: string; readonly baseUrl: string; readonly legacyUrl: string }): string {
  const hosts = [...new Set([e.authUrl, e.baseUrl, e.legacyUrl].map(exactOrigin).filter((o): o is string => o !== undefined))];
  // https:// is what every service address should be: only another scheme is worth the room.
  return hosts.length > 0 ? hosts.map((h) => h.replace(/^https:\/\//, '')).join(', ') : 'no address set';
}

/** "A: valid 23h 59m · B: signed out". */
export function tokensLabel(statuses: readonly TokenStatus[], now: number): string {
  return statuses.map((s) => `${INTERFACES[s.interfaceId].letter}: ${stateLabel(s, now)}`).join(' · ');
}
