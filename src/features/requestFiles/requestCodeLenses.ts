// "Send" and "Copy as curl" above every request of a request file, naming the interface whose token
// goes with it when the file or the host decides it, and the connection it goes to; "Run with Data…"
// at the top of a file with a request to run.
import * as vscode from 'vscode';
import { commandOf, Commands } from '../shared/commandIds';
import { INTERFACES } from '../shared/interfaces';
import { connectionOfRequest, type ConnectionChoice } from '../../core/requests/requestConnections';
import type { ParsedDocuments } from './parsedDocuments';
import { likelyInterface } from './requestChoice';

export class RequestCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly connections: () => ConnectionChoice,
    private readonly documents: ParsedDocuments,
    onEndpointsMayChange: vscode.Event<void>,
  ) {
    this.subscription = onEndpointsMayChange(() => this.changed.fire());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const choice = this.connections();
    const uri = document.uri.toString();
    const file = this.documents.get(document);
    const top = new vscode.Range(0, 0, 0, 0);
    const runWithData = file.requests.some((r) => !r.settings.disabled) ? [new vscode.CodeLens(top, commandOf(Commands.runWithData, '$(table) Run with Data…', { uri }))] : [];
    return [...runWithData, ...file.requests.flatMap((r) => {
      const range = new vscode.Range(r.requestLine, 0, r.requestLine, 0);
      const connection = connectionOfRequest(file, r, choice);
      const id = connection.ok ? likelyInterface(file, r, connection.endpoints) : undefined;
      const target = { uri, line: r.requestLine };
      // Never sent: no Send, and a line that says why (a lens with no command is plain text).
      if (r.settings.disabled) return [new vscode.CodeLens(range, { title: '$(circle-slash) Disabled by # @disabled', command: '' })];
      const to = connection.ok ? ` · ${connection.name}` : '';
      return [
        new vscode.CodeLens(range, commandOf(Commands.sendRequest, `${id ? `$(play) Send (${INTERFACES[id].name})` : '$(play) Send'}${to}`, target)),
        new vscode.CodeLens(range, commandOf(Commands.copyRequestAsCurl, 'Copy as curl', target)),
      ];
    })];
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
