// Credentials of the tests' own with the characters every encoding changes (percent-encoding, base64,
// JSON, XML), the sandbox configuration that accepts them, the CLI environment that gives them, and
// the list of a run's secrets to search outputs for, with the tokens an echo host saw.
import * as assert from 'node:assert/strict';
import type { EchoHost } from '../../echoHost';

/** Credentials with the characters percent-encoding, JSON and XML each change (no colon in the key: Basic splits there). */
export const ODD = {
  consumerKey: 'oddKEY/+=&%"<\'>;7f3a9c1e',
  consumerSecret: 'oddSECRET/+=&% "<\'>?#b81d44e2',
  user: 'oddUSER+/=5c2e90aa',
  password: 'oddPASS/+=&% "<\'>?#e4f17d3b',
} as const;

export function oddConfig(): unknown {
  return {
    customers: [{ id: 'odd', qps: 1000, concurrency: 100, clients: [{ consumerKey: ODD.consumerKey, consumerSecret: ODD.consumerSecret }], users: [{ user: ODD.user, password: ODD.password }] }],
  };
}

export function oddEnv(url: string): Record<string, string> {
  return {
    BIZDATA_AUTH_URL: url,
    BIZDATA_BASE_URL: url,
    BIZDATA_LEGACY_URL: url,
    BIZDATA_ORIGIN: 'https://app.example.com',
    BIZDATA_CONSUMER_KEY: ODD.consumerKey,
    BIZDATA_CONSUMER_SECRET: ODD.consumerSecret,
    BIZDATA_USER: ODD.user,
    BIZDATA_PASSWORD: ODD.password,
  };
}

/** The run's secrets by name: the credentials, both Basic forms, and every token the echo host was sent. */
export function secretsOf(host: EchoHost, extra: Record<string, string> = {}): Array<{ name: string; value: string }> {
  const basic = (a: string, b: string): string => Buffer.from(`${a}:${b}`).toString('base64');
  const named = { ...ODD, basicA: basic(ODD.consumerKey, ODD.consumerSecret), basicB: basic(ODD.user, ODD.password), ...extra };
  const tokens = host.tokens();
  assert.ok(tokens.length > 0, 'the echo host saw a token');
  return [...Object.entries(named).map(([name, value]) => ({ name, value })), ...tokens.map((value, i) => ({ name: `token ${i + 1}`, value }))];
}
