// A request file's answer as the history keeps it: any secret the client knows (the token, the
// credentials) that the service echoed back is replaced, in text and JSON bodies alike.
import type { CallResult } from '../../core/model';

export function withoutSecrets(result: CallResult, redact: (text: string) => string): CallResult {
  const text = result.ok ? result.text : undefined;
  if (text !== undefined) return { ...result, text: redact(text) } as CallResult;
  if (result.body === undefined) return result;
  const json = JSON.stringify(result.body);
  const clean = redact(json);
  return clean === json ? result : { ...result, body: JSON.parse(clean) as unknown };
}
