// Demo credentials and the configuration the sandbox runs with when none is given.
// These credentials are documented in docs/sandbox.md; they are not secrets.
import { TOKEN_LIFETIME_SECONDS } from '../core/constants';
import type { CredentialsA, CredentialsB } from '../core/model';
import type { SandboxConfig } from './config';

export const DEMO_CREDENTIALS: { readonly a: CredentialsA; readonly b: CredentialsB } = Object.freeze({
  a: Object.freeze({ interfaceId: 'a', consumerKey: 'sandbox-key', consumerSecret: 'sandbox-secret' } as const),
  b: Object.freeze({ interfaceId: 'b', user: 'sandbox-user', password: 'sandbox-password' } as const),
});

export const DEFAULT_QPS = 10;
export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_CLI_PORT = 8080;
export const DEMO_CUSTOMER_ID = 'sandbox';

export const DEFAULT_CONFIG: SandboxConfig = Object.freeze({
  tokenLifetimeSeconds: TOKEN_LIFETIME_SECONDS,
  customers: Object.freeze([
    Object.freeze({
      id: DEMO_CUSTOMER_ID,
      qps: DEFAULT_QPS,
      concurrency: DEFAULT_CONCURRENCY,
      clients: Object.freeze([
        Object.freeze({ consumerKey: DEMO_CREDENTIALS.a.consumerKey, consumerSecret: DEMO_CREDENTIALS.a.consumerSecret }),
      ]),
      users: Object.freeze([Object.freeze({ user: DEMO_CREDENTIALS.b.user, password: DEMO_CREDENTIALS.b.password })]),
    }),
  ]),
});
