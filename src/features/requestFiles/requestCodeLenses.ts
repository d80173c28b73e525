// "Send" and "Copy as curl" above every request of a request file, naming the interface whose token
// goes with it when the file or the host decides it.
import * as vscode from 'vscode';
import type { Endpoints } from '../../core/model';
import { parseRequestFile } from '../../core/requests/requestFile';
import { commandOf, Commands } from '../shared/commandIds';
import { INTERFACES } from '../shared/interfaces';
import { likelyInterface } from './prepareRequest';

export class RequestCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly endpoints: () => Endpoints,
    onEndpointsMayChange: vscode.Event<void>,
  ) {
    this.subscription = onEndpointsMayChange(() => this.changed.fire());
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const endpoints = this.endpoints();
    const uri = document.uri.toString();
    const file = parseRequestFile(document.getText());
    return file.requests.flatMap((r) => {
      const range = new vscode.Range(r.requestLine, 0, r.requestLine, 0);
      const id = likelyInterface(file, r, endpoints);
      const target = { uri, line: r.requestLine };
      // Never sent: no Send, and a line that says why (a lens with no command is plain text).
      if (r.settings.disabled) return [new vscode.CodeLens(range, { title: '$(circle-slash) Disabled by # @disabled', command: '' })];
      return [
        new vscode.CodeLens(range, commandOf(Commands.sendRequest, id ? `$(play) Send (${INTERFACES[id].name})` : '$(play) Send', target)),
        new vscode.CodeLens(range, commandOf(Commands.copyRequestAsCurl, 'Copy as curl', target)),
      ];
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
