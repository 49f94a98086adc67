import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ChatApprovalPrompter } from '../../src/vscode/approval-prompter';
import { waitFor } from './helpers';

function diffTabs(toolCallId: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.query === toolCallId);
}

suite('Review diff', () => {
  test('the diff tab of a change closes once the change is answered', async () => {
    const prompter = new ChatApprovalPrompter();
    try {
      const preview = { kind: 'fileChange', path: 'notes.txt', absolutePath: '/tmp/arbor-review-notes.txt', original: '', proposed: 'hello\n', isNewFile: true };
      const answer = prompter.ask({ toolCallId: 'review-1', toolName: 'write', args: { path: 'notes.txt', content: 'hello\n' }, preview }, new AbortController().signal);
      assert.equal(await prompter.openDiff('review-1'), true);
      await waitFor('the diff tab', () => diffTabs('review-1').length === 1);
      assert.equal(prompter.answer('review-1', { kind: 'approve' }), true);
      await answer;
      await waitFor('the diff tab to close', () => diffTabs('review-1').length === 0, 5000);
    } finally {
      prompter.dispose();
    }
  });
});
