// A request of a request file made ready to send from the editor, with what it reads from outside
// its text: the answers to its `# @prompt` lines, the system variables' `.env` and allowed
// environment, and its body files (read only now, inside the file's folder: fileSafety.ts). Plain
// TypeScript (unit-tested in plain Node); requestInputs.ts gathers the inputs in VS Code.
import type { Endpoints } from '../../core/model';
import { prepareFileRequest } from '../../core/requests/fileRequest';
import type { BodyFileAccess } from '../../core/requests/fileSafety';
import type { ParsedRequest, ParsedRequestFile } from '../../core/requests/requestFile';
import { connectionVariables, type ChainedResponse, type VariableContext } from '../../core/requests/requestVariables';
import { prepareRequest, type Prepared } from './prepareRequest';
import { withoutManagedHeaders } from './requestProblems';

export interface RequestInputs extends Pick<VariableContext, 'prompts' | 'system'> {
  readonly files: BodyFileAccess;
}

export async function prepareToSend(file: ParsedRequestFile, r: ParsedRequest, endpoints: Endpoints, responses: ReadonlyMap<string, ChainedResponse>, inputs: RequestInputs): Promise<Prepared> {
  const { prompts, system, files } = inputs;
  const checked = prepareRequest(file, r, endpoints, responses, { prompts, system });
  // Only a body file is still missing (the pass without files says it is read when sending): read it now.
  if (checked.ok || checked.reason !== 'variable' || !r.bodyLines.some((l) => l.file)) return checked;
  const resolved = await prepareFileRequest(file, r, { connection: connectionVariables(endpoints), responses, prompts, system }, endpoints, files);
  return resolved.ok ? { ok: true, request: withoutManagedHeaders(resolved.request) } : resolved;
}
