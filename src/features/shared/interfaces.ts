// The two interfaces of the service, spelled once: their ids, the names sentences use, the labels of
// pickers and views, the letter of the status bar. Plain TypeScript (unit-tested in plain Node).
import type { InterfaceId } from '../../core/model';
import type { HistoryQuery } from '../state/historyQueries';

export interface InterfaceInfo {
  readonly id: InterfaceId;
  /** In sentences: "signed in to Interface A". */
  readonly name: string;
  /** In the status bar: "Business Data A". */
  readonly letter: string;
  /** In lists and views, with the kind of credential: "Interface A (consumer key)". */
  readonly label: string;
  /** What signing in asks for. */
  readonly credentials: string;
  /** What it serves, for the sign-in pick list. */
  readonly detail: string;
  /** Codicon of the sign-in pick list. */
  readonly icon: string;
}

export const INTERFACE_IDS = ['a', 'b'] as const satisfies readonly InterfaceId[];

export const INTERFACES: Readonly<Record<InterfaceId, InterfaceInfo>> = {
  a: {
    id: 'a',
    name: 'Interface A',
    letter: 'A',
    label: 'Interface A (consumer key)',
    credentials: 'consumer key and secret',
    detail: 'IP address lookups with an OAuth 2.0 bearer token.',
    icon: 'key',
  },
  b: {
    id: 'b',
    name: 'Interface B',
    letter: 'B',
    label: 'Interface B (user name)',
    credentials: 'user name and password',
    detail: 'Organization lookups with the legacy 2.0 token. Three failed sign-ins lock the account.',
    icon: 'account',
  },
};

/** The interface a lookup calls: IP addresses on A, organizations on B, a request the one it names. */
export function interfaceOf(query: HistoryQuery): InterfaceId {
  if (query.kind === 'request') return query.request.interfaceId;
  return query.kind === 'ip' ? 'a' : 'b';
}

export function isInterfaceId(value: unknown): value is InterfaceId {
  return value === 'a' || value === 'b';
}
