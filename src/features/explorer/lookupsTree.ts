// Renders the LookupModel: a "Saved" group and a "History" group. Menus match the contextValues.
import * as vscode from 'vscode';
import { safeLine } from '../../core/sanitize';
import { failureLine } from '../../core/exchange/failures';
import { commandOf, Commands } from '../shared/commandIds';
import { queryKindLabel, queryLabel, type HistoryQuery } from '../state/historyQueries';
import { ANSWER_NOT_STORED, type LookupEntry, type LookupNode } from '../state/lookupEntries';
import type { LookupModel } from '../state/lookupModel';
import { toResultUri } from '../state/resultUri';

export const LOOKUP_CONTEXT = { history: 'bizdata.lookup.history', saved: 'bizdata.lookup.saved' } as const;

const GROUPS: Readonly<Record<'saved' | 'history', LookupNode>> = {
  saved: { type: 'group', group: 'saved' },
  history: { type: 'group', group: 'history' },
};

export class LookupsTreeProvider implements vscode.TreeDataProvider<LookupNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<LookupNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly model: LookupModel) {
    this.subscription = model.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(element?: LookupNode): LookupNode[] {
    if (!element) {
      // Empty: [] lets the view's viewsWelcome content show.
      const groups: LookupNode[] = [];
      if (this.model.savedQueries.length > 0) groups.push(GROUPS.saved);
      if (this.model.entries.length > 0) groups.push(GROUPS.history);
      return groups;
    }
    if (element.type !== 'group') return [];
    return element.group === 'saved'
      ? this.model.savedQueries.map((saved) => ({ type: 'saved', saved }))
      : this.model.entries.map((entry) => ({ type: 'history', entry }));
  }

  getTreeItem(element: LookupNode): vscode.TreeItem {
    switch (element.type) {
      case 'group': {
        const item = new vscode.TreeItem(element.group === 'saved' ? 'Saved' : 'History', vscode.TreeItemCollapsibleState.Expanded);
        item.id = `group:${element.group}`;
        return item;
      }
      case 'saved': {
        const q = element.saved.query;
        const item = new vscode.TreeItem(queryLabel(q), vscode.TreeItemCollapsibleState.None);
        item.id = `saved:${element.saved.id}`;
        item.description = queryKindLabel(q);
        item.iconPath = new vscode.ThemeIcon('bookmark');
        item.contextValue = LOOKUP_CONTEXT.saved;
        const where = element.saved.connection === undefined ? '' : ` on the connection ${element.saved.connection}`;
        item.tooltip = `Saved ${queryKindLabel(q)}${q.kind === 'request' ? '' : ' lookup'}${where}. Click to run it.${requestLine(q)}`;
        if (element.saved.connection !== undefined) item.description = `${queryKindLabel(q)} · ${element.saved.connection}`;
        item.command = commandOf(Commands.rerunLookup, 'Run', element);
        return item;
      }
      case 'history': {
        const item = historyItem(element);
        return this.model.answerMissing(element.entry.id) ? markedNotStored(item) : item;
      }
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function historyItem(node: Extract<LookupNode, { type: 'history' }>): vscode.TreeItem {
  const e = node.entry;
  const item = new vscode.TreeItem(queryLabel(e.query), vscode.TreeItemCollapsibleState.None);
  item.id = `history:${e.id}`;
  const code = safeLine(e.code ?? (e.ok ? 'OK' : (e.kind ?? 'failed')));
  item.description = `${code} · ${e.status ?? '—'} · ${Math.round(e.durationMs)} ms${e.connection === undefined ? '' : ` · ${e.connection}`}`;
  item.iconPath = new vscode.ThemeIcon(e.ok ? 'pass' : 'error', new vscode.ThemeColor(e.ok ? 'testing.iconPassed' : 'testing.iconFailed'));
  item.contextValue = LOOKUP_CONTEXT.history;
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${e.query.kind === 'request' ? 'Request' : `${capitalised(queryKindLabel(e.query))} lookup`}**\n\n`);
  md.appendText(`${queryLabel(e.query)}${requestLine(e.query)}\n`);
  md.appendMarkdown(`\n| | |\n|---|---|\n| Connection | ${(e.connection ?? '—').replace(/[|\\`*_[\]<>]/g, '\\$&')} |\n| Status | ${e.status ?? '—'} |\n| Result code | ${code.replace(/[|\\`*_[\]<>]/g, '\\$&')} |\n| Duration | ${Math.round(e.durationMs)} ms |\n| When | ${new Date(e.at).toISOString()} |\n`);
  const said = outcomeText(e);
  if (said) md.appendText(`\n${safeLine(said)}`);
  item.tooltip = md;
  item.command = { command: 'vscode.open', title: 'Open', arguments: [toResultUri(e), { preview: true }] };
  return item;
}

/**
 * What the entry's answer said, for its tooltip: a failure's text (as responseFailure chose it),
 * meaning and advice; a success's code with the service's text, else the catalog's.
 */
function outcomeText(e: LookupEntry): string | undefined {
  if (!e.ok) return e.text ? failureLine({ text: e.text, meaning: e.meaning, advice: e.advice ?? '' }) : undefined;
  return e.said;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A request's method and URL (never a token: the client adds it when sending). */
function requestLine(q: HistoryQuery): string {
  return q.kind === 'request' ? `\n${safeLine(`${q.request.method} ${q.request.url}`)}` : '';
}

/** An entry whose answer file is gone or unreadable stays in the list and says so. */
function markedNotStored(item: vscode.TreeItem): vscode.TreeItem {
  item.description = `${typeof item.description === 'string' ? item.description : ''} · answer no longer stored`;
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  if (item.tooltip instanceof vscode.MarkdownString) item.tooltip.appendText(`\n${ANSWER_NOT_STORED}`);
  return item;
}
