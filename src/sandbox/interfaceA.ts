// Interface A: OAuth 2.0 client-credentials token endpoint and the bearer IP lookup.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUCCESS_CODE, TOKEN_EXPIRED_A } from '../core/codes/codes';
import { DEFAULT_VIEW } from '../core/constants';
import { checkIp } from '../core/protocol/validate';
import { CUSTOMER_CODE_DETAIL, type SandboxContext, codeText } from './context';
import { type DataCallSide, dataCall } from './dataCall';
import { ipCandidates, ipSlug } from './data';
import { respondFault } from './faults';
import { type Answer, ErrorAnswer, acceptsGzip, headerText, isJsonContentType, jsonAnswer, jsonMembers, readJson } from './http';

export const VIEWS: readonly string[] = [DEFAULT_VIEW];

/** The error body of Interface A: {"error": {"errorCode", "errorMessage"}}. */
export function errorA(status: number, errorCode: string, errorMessage: string): ErrorAnswer {
  return new ErrorAnswer(status, { error: { errorCode, errorMessage } }, errorCode);
}

const invalidRequest = (message: string, status = 400): ErrorAnswer => errorA(status, 'invalid_request', message);

function requireOrigin(req: IncomingMessage): void {
  const origin = headerText(req, 'origin');
  if (origin === undefined || origin.trim() === '') {
    throw invalidRequest('The Origin header is required on Interface A requests; send a web origin such as https://example.com.');
  }
}

function parseBasic(header: string | undefined): { key: string; secret: string } {
  if (header === undefined || header.trim() === '') {
    throw errorA(401, 'invalid_client', 'Client authentication is missing: send Authorization: Basic base64(consumer_key:consumer_secret).');
  }
  const m = /^Basic +([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (m === null || (m[1] ?? '').length % 4 !== 0) {
    throw invalidRequest('The Authorization header must be "Basic " followed by the base64 encoding of consumer_key:consumer_secret.');
  }
  const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) {
    throw invalidRequest('The Basic credentials must decode to consumer_key:consumer_secret, both non-empty.');
  }
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export async function handleToken(ctx: SandboxContext, req: IncomingMessage): Promise<Answer> {
  requireOrigin(req);
  const { key, secret } = parseBasic(headerText(req, 'authorization'));
  if (!isJsonContentType(req)) throw invalidRequest('The Content-Type must be application/json.');
  const body = await readJson(req, invalidRequest);
  if (typeof body !== 'object' || body === null || (body as Record<string, unknown>).grant_type !== 'client_credentials') {
    throw invalidRequest('The body must be the JSON object {"grant_type":"client_credentials"}.');
  }
  const outcome = await ctx.store.authenticateClient(key, secret);
  if (!outcome.ok) {
    const err = outcome.reason === 'subscriber-expired'
      ? errorA(401, 'SC004', codeText('SC004'))
      : errorA(401, 'invalid_client', 'The consumer key or secret is not accepted.');
    ctx.store.noteCode(outcome.customer, err.code);
    throw err;
  }
  const injected = respondFault(ctx, req, outcome.customer);
  if (injected !== undefined) return injected;
  ctx.store.noteCode(outcome.customer, SUCCESS_CODE);
  return jsonAnswer(200, { access_token: outcome.token, expiresIn: ctx.store.tokenLifetimeSeconds }, {
    code: SUCCESS_CODE,
    headers: { 'cache-control': 'no-store' },
  });
}

/** Interface A data calls: Origin, then `Authorization: Bearer <token>`; refusals in the {"error"} shape. */
export const SIDE_A: DataCallSide = {
  authorize(ctx, req) {
    requireOrigin(req);
    const auth = headerText(req, 'authorization');
    const m = auth === undefined ? null : /^Bearer +(\S+)\s*$/i.exec(auth);
    if (m === null) throw errorA(401, 'invalid_token', 'Send the access token as Authorization: Bearer <access_token>.');
    const check = ctx.store.checkToken(m[1] ?? '', 'a');
    if (check.ok) return check;
    const err = check.reason === 'expired'
      ? errorA(401, TOKEN_EXPIRED_A, `${codeText(TOKEN_EXPIRED_A)} Obtain a new token from POST /v1/token.`)
      : errorA(401, 'invalid_token', 'The access token is unknown or was invalidated; obtain a new token from POST /v1/token.');
    ctx.store.noteCode(check.customer, err.code);
    throw err;
  },
  refuse: (_ctx, code) => errorA(401, code, `${codeText(code)} ${CUSTOMER_CODE_DETAIL[code] ?? ''}`.trim()),
};

export function handleIpLookup(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, rawIp: string, query: URLSearchParams): Promise<Answer> {
  return dataCall(ctx, req, res, SIDE_A, () => {
    let ip: string;
    try {
      ip = decodeURIComponent(rawIp).trim();
    } catch {
      throw invalidRequest('The IP address in the path is not correctly URL-encoded.');
    }
    const ipProblem = checkIp(ip);
    if (ipProblem !== undefined) throw invalidRequest(ipProblem);
    const view = query.get('view') ?? DEFAULT_VIEW;
    if (!VIEWS.includes(view)) throw invalidRequest(`Unknown view "${view.slice(0, 40)}"; use view=${DEFAULT_VIEW}.`);
    return () => {
      const gzip = acceptsGzip(req);
      const fixture = ctx.fixtures.ip.get(ipSlug(ip));
      if (fixture !== undefined) return jsonAnswer(200, fixture, { code: SUCCESS_CODE, gzip });
      const key = `a\n${ip}\n${view}`;
      const tail = ctx.bodies.get(key) ?? ctx.bodies.set(key, ipTail(ip, view));
      const detail = JSON.stringify({ transactionID: ctx.nextTransactionId(), transactionTimestamp: new Date(ctx.store.now()).toISOString() });
      return { status: 200, body: `{"sandbox":true,"transactionDetail":${detail},${tail}}`, code: SUCCESS_CODE, gzip };
    };
  });
}

/** Everything of an IP lookup body after transactionDetail, serialized once per IP and view. */
function ipTail(ip: string, view: string): string {
  const candidates = ipCandidates(ip);
  return jsonMembers({ inquiryDetail: { ipAddress: ip, view }, candidatesMatchedQuantity: candidates.length, matchCandidates: candidates });
}
