// The admin API: what "support" and the test harness do to a running sandbox.
// Every route needs the header x-sandbox-admin with the instance's admin key.
import type { IncomingMessage } from 'node:http';
import { CONFIG_BOUNDS, hasControlCharacters } from './config';
import type { SandboxContext } from './context';
import { ADMIN_PREFIX } from './endpoints';
import { FaultInputError } from './faults';
import { type Answer, ErrorAnswer, MAX_BODY_BYTES, headerText, jsonAnswer, readBody } from './http';
import { sameText } from './secrets';
import { MAX_CLOCK_OFFSET_SECONDS } from './stateFile';

export const ADMIN_HEADER = 'x-sandbox-admin';
export const INVALIDATION_REASONS = ['release-update', 'disaster-recovery', 'contract-expiration'] as const;

function adminError(status: number, errorCode: string, errorMessage: string): ErrorAnswer {
  return new ErrorAnswer(status, { error: { errorCode, errorMessage } }, errorCode);
}

const badRequest = (message: string, status = 400): ErrorAnswer => adminError(status, 'invalid_request', message);

/** Admin bodies are optional on some routes: an empty body reads as {}. */
async function bodyObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, MAX_BODY_BYTES, () => badRequest('The request body is larger than 64 KiB.', 413));
  if (raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('The request body must be a JSON object.');
  return value as Record<string, unknown>;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw badRequest(`"${name}" must be a non-empty string.`);
  return v;
}

function methodNotAllowed(allowed: string): ErrorAnswer {
  return new ErrorAnswer(405, { error: { errorCode: 'method_not_allowed', errorMessage: `Use ${allowed}.` } }, 'method_not_allowed', { allow: allowed });
}

export async function handleAdmin(ctx: SandboxContext, req: IncomingMessage, path: string): Promise<Answer> {
  const key = headerText(req, ADMIN_HEADER);
  if (key === undefined || !sameText(key, ctx.adminKey)) {
    throw adminError(403, 'forbidden', `The admin API needs the header ${ADMIN_HEADER} with the sandbox's admin key.`);
  }
  const method = req.method ?? 'GET';
  const route = path.slice(ADMIN_PREFIX.length).replace(/\/+$/, '');
  const ok = (body: unknown, status = 200): Answer => jsonAnswer(status, body, { code: 'admin' });

  const userRoute = /^users\/([^/]+)(?:\/(unlock|password))?$/.exec(route);
  if (userRoute !== null) {
    let user: string;
    try {
      user = decodeURIComponent(userRoute[1] ?? '');
    } catch {
      throw badRequest('The user name in the path is not correctly URL-encoded.');
    }
    if (!ctx.store.hasUser(user)) throw adminError(404, 'not_found', `No Interface B user "${user.slice(0, 80)}" in the sandbox config.`);
    const action = userRoute[2];
    if (action === undefined) {
      if (method !== 'GET') throw methodNotAllowed('GET');
      return ok({ user, ...ctx.store.userState(user) });
    }
    if (method !== 'POST') throw methodNotAllowed('POST');
    if (action === 'unlock') {
      await ctx.store.unlock(user);
      return ok({ user, ...ctx.store.userState(user) });
    }
    const password = (await bodyObject(req)).password;
    if (typeof password !== 'string' || password === '' || hasControlCharacters(password) || password.trim() !== password || password.length > 256) {
      throw badRequest('"password" must be a non-empty string of at most 256 characters, without control characters or surrounding spaces.');
    }
    await ctx.store.setPassword(user, password);
    return ok({ user, passwordChanged: true });
  }

  const contractRoute = /^customers\/([^/]+)\/contract$/.exec(route);
  if (contractRoute !== null) return ok(await contractAnswer(ctx, req, method, contractRoute[1] ?? ''));

  switch (route) {
    case 'stats':
      if (method !== 'GET') throw methodNotAllowed('GET');
      return ok(ctx.store.stats());
    case 'clock': {
      if (method === 'GET') return ok(clockBody(ctx));
      if (method !== 'POST') throw methodNotAllowed('GET, POST');
      const seconds = (await bodyObject(req)).advanceSeconds;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
        throw badRequest('"advanceSeconds" must be a number of seconds, 0 or more; the clock only moves forward.');
      }
      if (!ctx.store.advanceClock(seconds)) {
        const left = Math.floor(MAX_CLOCK_OFFSET_SECONDS - ctx.store.clockOffsetSeconds);
        throw badRequest(`The clock can run at most ${MAX_CLOCK_OFFSET_SECONDS} seconds (100 years) ahead of real time; it is ${ctx.store.clockOffsetSeconds} seconds ahead, so it can move at most ${left} more seconds. Restart the sandbox without its state file to reset it.`);
      }
      return ok(clockBody(ctx));
    }
    case 'tokens/invalidate': {
      if (method !== 'POST') throw methodNotAllowed('POST');
      const body = await bodyObject(req);
      const reason = optionalString(body, 'reason') ?? 'release-update';
      if (!(INVALIDATION_REASONS as readonly string[]).includes(reason)) {
        throw badRequest(`"reason" must be one of ${INVALIDATION_REASONS.join(', ')}.`);
      }
      const user = optionalString(body, 'user');
      const consumerKey = optionalString(body, 'consumerKey');
      const customer = optionalString(body, 'customer');
      if (user !== undefined && !ctx.store.hasUser(user)) throw adminError(404, 'not_found', `No Interface B user "${user.slice(0, 80)}".`);
      if (consumerKey !== undefined && !ctx.store.hasClient(consumerKey)) throw adminError(404, 'not_found', `No consumer key "${consumerKey.slice(0, 80)}".`);
      if (customer !== undefined && !ctx.store.hasCustomer(customer)) throw adminError(404, 'not_found', `No customer "${customer.slice(0, 80)}".`);
      return ok({ invalidated: ctx.store.invalidateTokens({ user, consumerKey, customer }), reason });
    }
    case 'faults':
      if (method === 'GET') return ok({ faults: ctx.faults.list() });
      if (method === 'DELETE') return ok({ cleared: ctx.faults.clear() });
      if (method !== 'POST') throw methodNotAllowed('GET, POST, DELETE');
      try {
        return ok({ fault: ctx.faults.add(await bodyObject(req)) }, 201);
      } catch (err) {
        if (err instanceof FaultInputError) throw badRequest(err.message);
        throw err;
      }
    default:
      throw adminError(404, 'not_found', `No admin route ${path.slice(0, 100)}.`);
  }
}

/** `GET|POST /_sandbox/customers/{id}/contract`: the contract's limit and counts; a POST changes them as support would. */
async function contractAnswer(ctx: SandboxContext, req: IncomingMessage, method: string, encoded: string): Promise<unknown> {
  let id: string;
  try {
    id = decodeURIComponent(encoded);
  } catch {
    throw badRequest('The customer id in the path is not correctly URL-encoded.');
  }
  if (!ctx.store.hasCustomer(id)) throw adminError(404, 'not_found', `No customer "${id.slice(0, 80)}" in the sandbox config.`);
  if (method === 'POST') {
    const body = await bodyObject(req);
    const limit = body.contractLimit;
    const { min, max } = CONFIG_BOUNDS.contractLimit;
    if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= min && limit <= max)) {
      throw badRequest(`"contractLimit" must be a whole number from ${min} to ${max}, or null for no limit.`);
    }
    if (body.resetUsed !== undefined && typeof body.resetUsed !== 'boolean') throw badRequest('"resetUsed" must be true or false.');
    ctx.store.changeContract(id, { ...(limit !== undefined ? { contractLimit: limit as number | null } : {}), resetUsed: body.resetUsed === true });
  } else if (method !== 'GET') {
    throw methodNotAllowed('GET, POST');
  }
  return ctx.store.contract(id);
}

function clockBody(ctx: SandboxContext): { now: string; offsetSeconds: number } {
  return { now: new Date(ctx.store.now()).toISOString(), offsetSeconds: ctx.store.clockOffsetSeconds };
}
