// Deterministic synthetic records, clearly marked as sandbox data, and the fixture file names.
// The same IP or name always gives the same record, so tests and demos are repeatable.
import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { findCountry } from '../core/protocol/countries';

const FIRST = ['Amber', 'Cobalt', 'Juniper', 'Silverline', 'Harborview', 'Quartz', 'Maplecrest', 'Orchid', 'Granite', 'Lumen', 'Tidewater', 'Foxglove'];
const SECOND = ['Ledger', 'Works', 'Forge', 'Analytics', 'Logistics', 'Foods', 'Textiles', 'Robotics', 'Outfitters', 'Systems', 'Ceramics', 'Freight'];
const FORMS = ['Ltd', 'Inc', 'GmbH', 'SA', 'BV', 'LLC'];
const STREETS = ['Example Street', 'Sample Avenue', 'Fictional Road', 'Placeholder Lane', 'Demo Boulevard'];
const IP_COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'CA', 'AU', 'NL', 'SE', 'SG'];

/** Names starting with this (any case) never match, so "no match" is easy to demonstrate. */
export const NO_MATCH_PREFIX = 'nomatch';

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function pick<T>(list: readonly T[], byte: number): T {
  return list[byte % list.length] as T;
}

function duns(d: Buffer, offset: number): string {
  return String(d.readUInt32BE(offset) % 1_000_000_000).padStart(9, '0');
}

function address(d: Buffer, countryCode: string): Record<string, unknown> {
  return {
    streetAddress: `${1 + (d[20] ?? 0)} ${pick(STREETS, d[21] ?? 0)}`,
    addressLocality: 'Sandbox City',
    postalCode: String(10000 + (d.readUInt16BE(22) % 89999)),
    countryISOAlpha2Code: countryCode,
  };
}

/**
 * True for addresses that never match: private, loopback, link-local, CGNAT, multicast, reserved
 * and unspecified ranges. The documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24,
 * 2001:db8::/32) do match, so the examples in the docs give a record.
 */
export function isNoMatchIp(ip: string): boolean {
  if (isIPv4(ip)) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (isIPv6(ip)) {
    const v = ip.toLowerCase();
    if (v === '::' || v === '::1') return true;
    if (v.startsWith('::ffff:')) return isNoMatchIp(v.slice(7));
    return /^f[cd]/.test(v) || /^fe[89ab]/.test(v) || v.startsWith('ff');
  }
  return true;
}

/** The synthetic organization behind an IP address, or undefined for a "no match" address. */
export function ipCandidates(ip: string): Record<string, unknown>[] {
  if (isNoMatchIp(ip)) return [];
  const d = digest(`ip:${ip.toLowerCase()}`);
  const country = pick(IP_COUNTRIES, d[3] ?? 0);
  return [
    {
      displaySequence: 1,
      organization: {
        duns: duns(d, 4),
        primaryName: `${pick(FIRST, d[0] ?? 0)} ${pick(SECOND, d[1] ?? 0)} ${pick(FORMS, d[2] ?? 0)} (Sandbox)`,
        primaryAddress: address(d, country),
        countryISOAlpha2Code: country,
      },
      ipDetail: { ipAddress: ip, networkType: pick(['Corporate', 'Hosting', 'Education'], d[8] ?? 0) },
    },
  ];
}

/** One to three synthetic candidates for a name in a country; none when the name starts with "NoMatch". */
export function orgCandidates(name: string, country: string, territory: string | undefined): Record<string, unknown>[] {
  const clean = name.trim();
  if (clean.toLowerCase().startsWith(NO_MATCH_PREFIX)) return [];
  const code = findCountry(country)?.code ?? country.toUpperCase();
  const d = digest(`org:${code}:${clean.toLowerCase()}`);
  const count = 1 + ((d[0] ?? 0) % 3);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const primaryName = i === 0 ? `${clean} (Sandbox)` : `${clean} ${pick(SECOND, d[1 + i] ?? 0)} ${pick(FORMS, d[4 + i] ?? 0)} (Sandbox)`;
    out.push({
      DisplaySequence: i + 1,
      DUNSNumber: duns(d, 8 + i * 4),
      OrganizationPrimaryName: { OrganizationName: { $: primaryName } },
      PrimaryAddress: { ...address(d, code), TerritoryName: territory ?? 'Sandbox Territory' },
      MatchQualityInformation: { ConfidenceCodeValue: 10 - i * 2 },
    });
  }
  return out;
}

/** File name of a fixture for a name: lower case, anything but letters and digits becomes "-". */
export function nameSlug(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** File name of a fixture for an IP: IPv6 colons become "-" so the name is valid on every OS. */
export function ipSlug(ip: string): string {
  return ip.toLowerCase().replace(/:/g, '-');
}
