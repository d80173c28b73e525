// Request files in VS Code's Test Explorer: one test controller whose tree is file → request (→
// assertion), with ranges so the gutter shows run icons, and one Run profile. Run, Re-run Failed and
// Run at Cursor come from VS Code's own testing commands (the explorer, the gutter, the palette).
import * as vscode from 'vscode';
import type { Services } from '../services';
import { RequestTestTree } from './testTree';
import { TestRunner } from './testRun';

export const TEST_CONTROLLER_ID = 'bizdata.requestTests';

export interface TestExplorer {
  readonly controller: vscode.TestController;
  readonly tree: RequestTestTree;
  readonly runProfile: vscode.TestRunProfile;
}

export function registerTestExplorer(context: vscode.ExtensionContext, services: Services): TestExplorer {
  const controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, 'Business Data request files');
  const tree = new RequestTestTree(controller, services.documents);
  const runner = new TestRunner(controller, tree, services);
  const runProfile = controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => runner.run(request, token), true);
  context.subscriptions.push(controller, tree, runProfile);
  return { controller, tree, runProfile };
}
