// The approval decision table (src/agent/approval.ts decideApproval) across modes, effects, settings,
// warnings and trust: every combination is checked against the rules written out here independently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideApproval, PLAN_MODE_REASON, RESTRICTED_MODE_REASON, type ApprovalFacts, type ApprovalSetting } from '../../../src/agent/approval';
import { APPROVAL_MODES, approvalModeOf, nextApprovalMode, recordedApprovalMode } from '../../../src/core/approval-modes';
import type { ToolEffect } from '../../../src/agent/tools/types';

const EFFECTS: Record<string, ToolEffect> = {
  readOnly: { kind: 'readOnly' },
  writesFiles: { kind: 'writesFiles', targets: () => ['a.txt'] },
  runs: { kind: 'runs' },
};

/** The rules in words: what a user is told each mode does. */
function expected(f: ApprovalFacts): string {
  const reads = f.tool.effect.kind === 'readOnly';
  if (!f.trusted && !reads) return 'deny:restricted';
  if (f.mode === 'plan' && !reads) return 'deny:plan';
  if (f.setting === 'deny') return 'deny:setting';
  if (f.warnings.length > 0) return 'ask';
  if (f.setting === 'allow' || f.remembered) return 'allow';
  if (f.mode === 'autoEdit' && f.tool.effect.kind === 'writesFiles' && f.targetsInside) return 'allow';
  return 'ask';
}

function actual(f: ApprovalFacts): string {
  const d = decideApproval(f);
  if (d.kind !== 'deny') return d.kind;
  if (d.reason === RESTRICTED_MODE_REASON) return 'deny:restricted';
  if (d.reason === PLAN_MODE_REASON) return 'deny:plan';
  assert.match(d.reason, /turned off in Arbor's settings/);
  return 'deny:setting';
}

test('every combination of mode, effect, setting, memory, warning, target and trust follows the table', () => {
  let count = 0;
  for (const mode of APPROVAL_MODES)
    for (const [kind, effect] of Object.entries(EFFECTS))
      for (const setting of ['ask', 'allow', 'deny', 'default'] as const)
        for (const remembered of [false, true])
          for (const warned of [false, true])
            for (const targetsInside of [false, true])
              for (const trusted of [true, false]) {
                const facts: ApprovalFacts = {
                  tool: { name: 't', effect },
                  setting: setting === 'default' ? ((kind === 'readOnly' ? 'allow' : 'ask') as ApprovalSetting) : setting,
                  remembered,
                  warnings: warned ? [{ kind: 'protectedPath', message: 'Protected file' }] : [],
                  targetsInside,
                  trusted,
                  mode,
                };
                assert.equal(actual(facts), expected(facts), JSON.stringify({ ...facts, tool: kind }));
                count++;
              }
  assert.equal(count, 3 * 3 * 4 * 2 * 2 * 2 * 2);
});

test('the modes in the words a user reads: what runs without asking', () => {
  const base = { setting: 'ask' as const, remembered: false, warnings: [], trusted: true };
  const write = { name: 'write', effect: EFFECTS.writesFiles! };
  const bash = { name: 'bash', effect: EFFECTS.runs! };
  assert.equal(decideApproval({ ...base, tool: write, mode: 'ask', targetsInside: true }).kind, 'ask', 'Ask: a write asks');
  assert.equal(decideApproval({ ...base, tool: write, mode: 'autoEdit', targetsInside: true }).kind, 'allow', 'Auto-edit: a write inside the workspace runs');
  assert.equal(decideApproval({ ...base, tool: write, mode: 'autoEdit', targetsInside: false }).kind, 'ask', 'Auto-edit: a write it cannot place inside asks');
  assert.equal(decideApproval({ ...base, tool: bash, mode: 'autoEdit', targetsInside: true }).kind, 'ask', 'Auto-edit: a command still asks');
  assert.equal(decideApproval({ ...base, tool: write, mode: 'autoEdit', targetsInside: true, warnings: [{ kind: 'protectedPath', message: '.vscode/' }] }).kind, 'ask', 'Auto-edit: a protected path asks');
  assert.equal(decideApproval({ ...base, tool: write, mode: 'autoEdit', targetsInside: true, trusted: false }).kind, 'deny', 'Restricted Mode wins over Auto-edit');
  assert.equal(decideApproval({ ...base, tool: write, mode: 'plan', targetsInside: true, setting: 'allow', remembered: true }).kind, 'deny', 'Plan: even an allowed write is refused');
  assert.equal(decideApproval({ ...base, tool: { name: 'read', effect: EFFECTS.readOnly! }, setting: 'allow', mode: 'plan', targetsInside: false }).kind, 'allow', 'Plan: reading runs');
});

test('the recorded mode is the last valid entry in the file; the cycle visits every mode', () => {
  const entry = (mode: unknown) => ({ type: 'custom', customType: 'arbor.approvalMode', data: { mode } });
  assert.equal(recordedApprovalMode([]), undefined);
  assert.equal(recordedApprovalMode([entry('plan'), { type: 'message' }, entry('autoEdit'), entry('bogus')]), 'autoEdit');
  assert.equal(approvalModeOf({ type: 'custom', customType: 'other', data: { mode: 'plan' } }), undefined);
  assert.equal(approvalModeOf({ type: 'custom', customType: 'arbor.approvalMode', data: null }), undefined);
  assert.deepEqual([nextApprovalMode('ask'), nextApprovalMode('autoEdit'), nextApprovalMode('plan')], ['autoEdit', 'plan', 'ask']);
});
