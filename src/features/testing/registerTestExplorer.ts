// Request files in VS Code's Test Explorer: one test controller whose tree is file → request (→
// assertion), with ranges so the gutter shows run icons, and two Run profiles: Run, and Run and
// Update Snapshots (every `?? snapshot` that differs is written again, as `bizdata test
// --update-snapshots`). Run, Re-run Failed and Run at Cursor come from VS Code's own testing commands
// (the explorer, the gutter, the palette); the second profile from the run button's menu.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { RequestTestTree } from './testTree';
import { TestRunner } from './testRun';

export const TEST_CONTROLLER_ID = 'bizdata.requestTests';
export const UPDATE_SNAPSHOTS_PROFILE = 'Run and Update Snapshots';

export interface TestExplorer {
  readonly controller: vscode.TestController;
  readonly tree: RequestTestTree;
  readonly runProfile: vscode.TestRunProfile;
  readonly updateSnapshotsProfile: vscode.TestRunProfile;
}

export function registerTestExplorer(context: vscode.ExtensionContext, services: Services): TestExplorer {
  const controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, 'Business Data request files');
  const tree = new RequestTestTree(controller, services.documents);
  const runner = new TestRunner(controller, tree, services);
  const runProfile = controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => runner.run(request, token), true);
  const updateSnapshotsProfile = controller.createRunProfile(UPDATE_SNAPSHOTS_PROFILE, vscode.TestRunProfileKind.Run, (request, token) => runner.run(request, token, 'update'), false);
  context.subscriptions.push(controller, tree, runProfile, updateSnapshotsProfile);
  return { controller, tree, runProfile, updateSnapshotsProfile };
}
