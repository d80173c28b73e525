// Interface B: user/password authentication (V2.0) and the organizations lookup (V4.0).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUCCESS_CODE } from '../core/codes/codes';
import { AUTH_VERSION_B, DEFAULT_MATCH_TYPE } from '../core/constants';
import type { TransactionDetail } from '../core/protocol/protocol';
import { checkCountry, checkName, checkOptionalText } from '../core/protocol/validate';
import { CUSTOMER_CODE_DETAIL, type SandboxContext, codeText } from './context';
import { type DataCallSide, dataCall } from './dataCall';
import { nameSlug, orgCandidates } from './data';
import { respondFault } from './faults';
import { type Answer, ErrorAnswer, MAX_BODY_BYTES, acceptsGzip, headerText, jsonAnswer, jsonMembers, parseJson, readBody } from './http';
import { parseIsoTime } from './isoTime';
import type { AuthFailure } from './store';

/** ApplicationTransactionID of data-call responses: the spec allows a fixed word. */
export const SERVICE_APPLICATION_ID = 'BizDataSandbox';
export const INVALID_CREDENTIALS = 'INVALID CREDENTIALS';
/** ResultID of bad-input answers (HTTP 400); the spec names no code for them. */
export const INVALID_REQUEST = 'invalid_request';

const SUCCESS_RESULT = JSON.stringify({ ResultID: SUCCESS_CODE, ResultText: codeText(SUCCESS_CODE) });

function result(severity: 'Fatal' | 'Error', code: string, text: string, description: string): Record<string, unknown> {
  return { SeverityText: severity, ResultID: code, ResultText: text, ResultMessage: { ResultDescription: description } };
}

/** A failed authentication call: top-level TransactionDetail + TransactionResult, SeverityText Fatal. */
function authError(status: number, detail: TransactionDetail | Readonly<Record<string, unknown>>, code: string, description: string): ErrorAnswer {
  const text = code === INVALID_REQUEST ? 'Invalid request' : codeText(code);
  const body = { TransactionDetail: detail, TransactionResult: result(status === 400 ? 'Error' : 'Fatal', code, text, description) };
  return new ErrorAnswer(status, body, code);
}

/** A failed data call: the operation's wrapper (MatchResponse for organizations), SeverityText Error. */
export function matchError(ctx: SandboxContext, status: number, code: string, description: string, wrapper = 'MatchResponse'): ErrorAnswer {
  const text = code === INVALID_REQUEST ? 'Invalid request' : codeText(code);
  const body = { [wrapper]: { TransactionDetail: serviceDetail(ctx), TransactionResult: result('Error', code, text, description) } };
  return new ErrorAnswer(status, body, code);
}

function serviceDetail(ctx: SandboxContext): TransactionDetail {
  return {
    ApplicationTransactionID: SERVICE_APPLICATION_ID,
    ServiceTransactionID: ctx.nextTransactionId(),
    TransactionTimestamp: new Date(ctx.store.now()).toISOString(),
  };
}

/** The TransactionDetail object as the client sent it, echoed even when it is invalid; {} when none was sent. */
function sentDetail(body: unknown): Readonly<Record<string, unknown>> {
  if (!isObject(body)) return {};
  const td = body.TransactionDetail;
  return isObject(td) ? td : {};
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseTransactionDetail(body: unknown, echo: Readonly<Record<string, unknown>>): TransactionDetail {
  const bad = (message: string): ErrorAnswer => authError(400, echo, INVALID_REQUEST, message);
  if (!isObject(body)) throw bad('The body must be a JSON object with a TransactionDetail object.');
  const t = body.TransactionDetail;
  if (!isObject(t)) throw bad('TransactionDetail is required: an object with ApplicationTransactionID, ServiceTransactionID and TransactionTimestamp.');
  for (const f of ['ApplicationTransactionID', 'ServiceTransactionID', 'TransactionTimestamp']) {
    const v = t[f];
    if (typeof v !== 'string' || v.trim() === '') throw bad(`TransactionDetail.${f} is required and must be a non-empty string.`);
    if (v.length > 256) throw bad(`TransactionDetail.${f} must be at most 256 characters long.`);
  }
  const ts = t.TransactionTimestamp as string;
  if (parseIsoTime(ts, true) === undefined) {
    throw bad(`TransactionDetail.TransactionTimestamp "${ts.slice(0, 40)}" is not an ISO 8601 date-time that exists; send e.g. 2025-01-31T12:00:00Z or 2025-01-31T14:00:00+02:00.`);
  }
  return {
    ApplicationTransactionID: t.ApplicationTransactionID as string,
    ServiceTransactionID: t.ServiceTransactionID as string,
    TransactionTimestamp: ts,
  };
}

const AUTH_FAILURE: Readonly<Record<AuthFailure, { code: string; description: string }>> = {
  unknown: { code: 'SC001', description: 'The user name or password is not accepted.' },
  'bad-secret': { code: 'SC001', description: 'The user name or password is not accepted.' },
  locked: { code: 'SC001', description: 'The account is locked after three failed authentication attempts; only support can unlock it.' },
  'credentials-expired': { code: 'SC003', description: CUSTOMER_CODE_DETAIL.SC003 ?? '' },
  'subscriber-expired': { code: 'SC004', description: CUSTOMER_CODE_DETAIL.SC004 ?? '' },
};

/** `/Authentication/` with no version, or a version other than V2.0: refused with the fix. */
function versionProblem(version: string | undefined): string | undefined {
  if (version === undefined || version === '') return `The version segment is mandatory: POST /Authentication/${AUTH_VERSION_B}/.`;
  if (version !== AUTH_VERSION_B) return `Unsupported authentication version "${version.slice(0, 20)}"; use POST /Authentication/${AUTH_VERSION_B}/.`;
  return undefined;
}

/** POST /Authentication/{version}/; `version` is the path segment as sent (undefined when absent). */
export async function handleAuthentication(ctx: SandboxContext, req: IncomingMessage, version: string | undefined): Promise<Answer> {
  const raw = await readBody(req, MAX_BODY_BYTES, () => authError(413, {}, INVALID_REQUEST, 'The request body is larger than 64 KiB.'));
  const body = parseJson(raw);
  const echo = sentDetail(body.value);
  const wrongVersion = versionProblem(version);
  if (wrongVersion !== undefined) throw authError(400, echo, INVALID_REQUEST, wrongVersion);
  if (body.problem !== undefined) throw authError(400, echo, INVALID_REQUEST, body.problem);
  const detail = parseTransactionDetail(body.value, echo);
  const user = headerText(req, 'x-svc-user');
  const password = headerText(req, 'x-svc-pwd');
  const failHeaders = { authorization: INVALID_CREDENTIALS };
  if (user === undefined || user === '' || password === undefined || password === '') {
    const e = authError(401, detail, 'SC001', 'Both the x-svc-user and x-svc-pwd headers are required.');
    throw new ErrorAnswer(e.status, e.body, e.code, failHeaders);
  }
  const outcome = await ctx.store.authenticateUser(user, password);
  if (!outcome.ok) {
    const f = AUTH_FAILURE[outcome.reason];
    ctx.store.noteCode(outcome.customer, f.code);
    const e = authError(401, detail, f.code, f.description);
    throw new ErrorAnswer(e.status, e.body, e.code, failHeaders);
  }
  const injected = respondFault(ctx, req, outcome.customer);
  if (injected !== undefined) return injected;
  ctx.store.noteCode(outcome.customer, SUCCESS_CODE);
  return jsonAnswer(200, {
    TransactionDetail: detail,
    TransactionResult: { ResultID: SUCCESS_CODE, ResultText: codeText(SUCCESS_CODE) },
    AuthenticationDetail: { Token: outcome.token },
  }, { code: SUCCESS_CODE, headers: { authorization: outcome.token, 'cache-control': 'no-store' } });
}

interface OrgParams {
  country: string;
  name: string;
  territory: string | undefined;
  matchType: string;
}

function parseOrgQuery(ctx: SandboxContext, q: URLSearchParams): OrgParams {
  const bad = (message: string): ErrorAnswer => matchError(ctx, 400, INVALID_REQUEST, message);
  const country = q.get('CountryISOAlpha2Code');
  if (country === null) throw bad('The CountryISOAlpha2Code query parameter is required (ISO 3166 alpha-2, e.g. US).');
  const countryProblem = checkCountry(country);
  if (countryProblem !== undefined) throw bad(countryProblem);
  const name = q.get('SubjectName');
  if (name === null) throw bad('The SubjectName query parameter is required: the organization name to look up.');
  const nameProblem = checkName(name);
  if (nameProblem !== undefined) throw bad(nameProblem);
  const match = q.get('match');
  if (match === null) throw bad('The match query parameter is required; use match=true.');
  if (match !== 'true') throw bad(`match must be true (got "${match.slice(0, 20)}"); the sandbox serves matching calls only.`);
  const matchType = q.get('MatchTypeText') ?? DEFAULT_MATCH_TYPE;
  if (matchType !== DEFAULT_MATCH_TYPE) throw bad(`Unknown MatchTypeText "${matchType.slice(0, 40)}"; use MatchTypeText=${DEFAULT_MATCH_TYPE}.`);
  const territory = q.get('TerritoryName') ?? undefined;
  const territoryProblem = checkOptionalText('TerritoryName', territory);
  if (territoryProblem !== undefined) throw bad(territoryProblem);
  if (territory !== undefined && territory.length > 128) throw bad('TerritoryName must be at most 128 characters long.');
  return { country: country.trim().toUpperCase(), name, territory, matchType };
}

function syntheticMatch(params: OrgParams): Record<string, unknown> {
  const candidates = orgCandidates(params.name, params.country, params.territory);
  return {
    MatchResponseDetail: {
      sandbox: true,
      InquiryDetail: {
        SubjectName: params.name, CountryISOAlpha2Code: params.country, TerritoryName: params.territory, MatchTypeText: params.matchType,
      },
      CandidateMatchedQuantity: candidates.length,
      MatchCandidate: candidates,
    },
  };
}

/**
 * Interface B data calls: the raw token as `Authorization`, the account's lock and credentials;
 * refusals wrapped in `wrapper` (MatchResponse for organizations), SeverityText Error.
 */
export function sideB(wrapper: string): DataCallSide {
  return {
    authorize(ctx, req) {
      const token = headerText(req, 'authorization');
      if (token === undefined || token.trim() === '') {
        throw matchError(ctx, 401, 'SC001', `Send the token from POST /Authentication/${AUTH_VERSION_B}/ as the Authorization header, with no scheme word.`, wrapper);
      }
      const check = ctx.store.checkToken(token.trim(), 'b');
      if (check.ok) return check;
      const description = check.reason === 'expired'
        ? 'The token has expired (24 hours after issue); authenticate again for a new token.'
        : /^bearer /i.test(token)
          ? 'Interface B takes the raw token as the Authorization header, without "Bearer".'
          : 'The token is unknown or was invalidated (release update, disaster recovery or contract expiration); authenticate again.';
      ctx.store.noteCode(check.customer, 'SC001');
      throw matchError(ctx, 401, 'SC001', description, wrapper);
    },
    checkAccount(ctx, token) {
      const condition = ctx.store.userCondition(token.record.principal);
      if (condition === 'locked') throw matchError(ctx, 401, 'SC001', AUTH_FAILURE.locked.description, wrapper);
      if (condition === 'credentials-expired') throw matchError(ctx, 401, 'SC003', AUTH_FAILURE['credentials-expired'].description, wrapper);
    },
    refuse: (ctx, code) => matchError(ctx, 401, code, CUSTOMER_CODE_DETAIL[code] ?? codeText(code), wrapper),
  };
}

const SIDE_ORGANIZATIONS = sideB('MatchResponse');

export function handleOrganizations(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<Answer> {
  return dataCall(ctx, req, res, SIDE_ORGANIZATIONS, () => {
    const params = parseOrgQuery(ctx, query);
    return () => {
      const fixture = ctx.fixtures.org.get(nameSlug(params.name));
      const key = `b\n${params.country}\n${params.name}\n${params.territory ?? ''}\n${params.matchType}`;
      const tail = fixture !== undefined ? jsonMembers(fixture) : (ctx.bodies.get(key) ?? ctx.bodies.set(key, jsonMembers(syntheticMatch(params))));
      const head = `{"MatchResponse":{"TransactionDetail":${JSON.stringify(serviceDetail(ctx))},"TransactionResult":${SUCCESS_RESULT}`;
      return { status: 200, body: `${head}${tail === '' ? '' : `,${tail}`}}}`, code: SUCCESS_CODE, gzip: acceptsGzip(req) };
    };
  });
}
