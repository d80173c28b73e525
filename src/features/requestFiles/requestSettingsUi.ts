// What the request settings ask in the editor before a request is sent (the parser reads them:
// requestSettings.ts): `# @prompt NAME [description]` an input box per name, masked when the name
// looks secret; `# @note [text]` a modal question. Answers live only for the one send: never kept,
// logged or written anywhere.
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';

export interface PromptLike {
  readonly name: string;
  readonly description?: string;
  readonly secret: boolean;
}

/** An answer for each prompt, by name; undefined when the user closed one of the boxes. */
export async function askPrompts(prompts: readonly PromptLike[], requestLabel: string): Promise<ReadonlyMap<string, string> | undefined> {
  const answers = new Map<string, string>();
  for (const [i, p] of prompts.entries()) {
    const answer = await vscode.window.showInputBox({
      title: `${safeLine(requestLabel)}: {{${p.name}}}${prompts.length > 1 ? ` (${i + 1}/${prompts.length})` : ''}`,
      prompt: safeLine(p.description ?? `The value of {{${p.name}}} for this request (# @prompt ${p.name}).`),
      password: p.secret,
      ignoreFocusOut: true,
    });
    if (answer === undefined) return undefined;
    answers.set(p.name, answer);
  }
  return answers;
}

const SEND = 'Send';

/** Whether the user confirms sending a request marked `# @note`; the note's text, if any, is the question's detail. */
export async function confirmNote(note: string, requestLabel: string): Promise<boolean> {
  const detail = note === '' ? 'The request file asks to confirm before this request is sent (# @note).' : safeLine(note);
  return (await vscode.window.showWarningMessage(`Send ${safeLine(requestLabel)}?`, { modal: true, detail }, SEND)) === SEND;
}
