// "Business Data: Copy Request as curl" (and the CodeLens): a request of a request file as the client
// would send it, with <TOKEN> where the token goes. Refused, like sending, for a host that is not one
// of the service's: a pasted token must not go elsewhere either.
import { PLACEHOLDER } from '../core/http/curl';
import { operationRequest } from '../core/protocol/protocol';
import { checkOperation } from '../core/requests/queries';
import { prepareWithoutFiles } from '../core/run/prepare';
import type { Services } from '../features/services';
import { UserError } from '../features/shared/userError';
import { copyCurl } from './copyAsCurl';
import { placeOf, requestConnection } from './sendRequest';
import { resolveRequestTarget } from './requestTarget';

export async function copyRequestAsCurl(services: Services, arg?: unknown): Promise<string> {
  const target = await resolveRequestTarget(services.documents, arg);
  const connection = requestConnection(services, target);
  const endpoints = connection.settings().endpoints;
  // A `# @prompt` value stands as <NAME>: what is typed at a prompt is never copied.
  const prompts = new Map(target.request.settings.prompts.map((p) => [p.name, `<${p.name}>`]));
  const prepared = prepareWithoutFiles(target.file, target.request, endpoints, services.responses.of(target.document.uri.toString()), { prompts });
  if (!prepared.ok) throw new UserError(`${placeOf(target, prepared.line)}: ${prepared.message}`);
  const problem = checkOperation(prepared.request, endpoints);
  if (problem) throw new UserError(`${placeOf(target, target.request.requestLine)}: ${problem}`);
  return copyCurl(services, operationRequest(endpoints, prepared.request, PLACEHOLDER.token).record, connection.name);
}
