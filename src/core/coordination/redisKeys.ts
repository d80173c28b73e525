// Every key the coordinator writes: under one namespace, named by a hash of the account key, so no
// account name (nor anything secret) is ever part of a key.
import { createHash } from 'node:crypto';

export const NAMESPACE = 'bizdata:v1';

export interface RedisKeys {
  readonly token: string;
  readonly lock: string;
  readonly guard: string;
  readonly limits: string;
  readonly state: string;
  readonly window: string;
  readonly accepted: string;
  /** Accepted calls whose answers were read, by start time: what a call shows as surely accepted with it. */
  readonly done: string;
  /** Accepted calls by the time their answers were read: when each has surely left the service's window. */
  readonly ended: string;
  readonly active: string;
  readonly pause: string;
  readonly bucket: string;
}

export function accountHash(account: string): string {
  return createHash('sha256').update(`bizdata|${account}`).digest('hex').slice(0, 32);
}

export function redisKeys(account: string): RedisKeys {
  const h = accountHash(account);
  const k = (kind: string): string => `${NAMESPACE}:${kind}:${h}`;
  return {
    token: k('token'),
    lock: k('lock'),
    guard: k('guard'),
    limits: k('limits'),
    state: k('state'),
    window: k('window'),
    accepted: k('accepted'),
    done: k('done'),
    ended: k('ended'),
    active: k('active'),
    pause: k('pause'),
    bucket: k('bucket'),
  };
}
