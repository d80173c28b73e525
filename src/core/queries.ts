// Checks of a whole query and of the credentials before anything is sent (built on validate.ts).
import type { Credentials, LookupQuery } from './model';
import { checkCountry, checkHeaderValue, checkIp, checkName, checkOptionalText } from './validate';

const TOKEN_WORD = /^[A-Za-z0-9_.-]{1,64}$/;

/** The first problem with a query, or undefined when it may be sent. */
export function checkLookup(q: LookupQuery): string | undefined {
  if (q.kind === 'ip') {
    return (
      checkIp(q.ip) ??
      (q.view !== undefined && !TOKEN_WORD.test(q.view)
        ? `The view "${q.view.slice(0, 40)}" is not a view name; use a single word such as standard.`
        : undefined)
    );
  }
  return (
    checkCountry(q.country) ??
    checkName(q.name) ??
    checkOptionalText('The territory', q.territory) ??
    (q.matchType !== undefined && !TOKEN_WORD.test(q.matchType)
      ? `The match type "${q.matchType.slice(0, 40)}" is not a single word; use for example Advanced.`
      : undefined)
  );
}

/** Credentials go into headers: empty values or line breaks are refused without echoing them. */
export function checkCredentials(c: Credentials): string | undefined {
  if (c.interfaceId === 'a') {
    return (
      checkHeaderValue('The consumer key', c.consumerKey) ??
      // HTTP Basic splits key from secret at the first colon, so a key cannot contain one.
      (c.consumerKey.includes(':') ? 'The consumer key contains a colon, which HTTP Basic cannot carry; check the key.' : undefined) ??
      checkHeaderValue('The consumer secret', c.consumerSecret)
    );
  }
  return checkHeaderValue('The user name', c.user, 'raw') ?? checkHeaderValue('The password', c.password, 'raw');
}
