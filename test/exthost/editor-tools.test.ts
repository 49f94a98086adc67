// The editor-knowledge tools against a real language server: VS Code's built-in TypeScript features in
// the extension host. The scripted model calls `diagnostics`, `definition`, `references` and `symbols` on
// two .ts files of the workspace (one with a type error), then `edit`s in a second type error, whose
// result must end with "Problems after this edit" naming it. Every approval is granted.
import * as assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ArborApi } from '../../src/vscode/api';
import { workspaceFile } from './checkpoints-fixtures';
import { activateArbor, fakeAdmin, waitFor } from './helpers';

const FOLDER = 'arbor-editor';
const PRICE = `${FOLDER}/price.ts`;
const CART = `${FOLDER}/cart.ts`;
const PRICE_TEXT = 'export function priceOf(cents: number): string {\n  return (cents / 100).toFixed(2);\n}\n';
const CART_TEXT = "import { priceOf } from './price';\n\nexport const total: number = priceOf(250);\nexport const label = priceOf(100);\n";

/** The tools that asked for approval in the last toolTurn. */
let asked: string[] = [];

/** One turn in which the model makes `calls` (all approved) and then says "done"; returns each call's result text. */
async function toolTurn(api: ArborApi, calls: { name: string; input: Record<string, unknown> }[]): Promise<string[]> {
  asked = [];
  const ids = calls.map((_, i) => `call_ed_${Date.now()}_${i}`);
  await fakeAdmin('enqueue', [{ toolCalls: calls.map((c, i) => ({ id: ids[i], ...c })) }, { text: 'done' }]);
  const subscription = api.approvals.onDidRequest((pending) => {
    asked.push(pending.toolName);
    api.approvals.answer(pending.toolCallId, { kind: 'approve' });
  });
  try {
    assert.equal((await api.app.prompt('use the editor')).kind, 'sent');
    await waitFor('the turn to end', () => !api.app.busy, 60_000);
  } finally {
    subscription.dispose();
  }
  const results = api.app.currentStore!.getBranch().flatMap((e) => (e.type === 'message' && e.message.role === 'toolResult' ? [e.message] : []));
  return ids.map((id) => {
    const result = results.find((r) => r.toolCallId === id);
    assert.ok(result, `a result for ${id}`);
    return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  });
}

async function errorsOf(rel: string): Promise<vscode.Diagnostic[]> {
  return vscode.languages.getDiagnostics(vscode.Uri.file(workspaceFile(rel))).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
}

suite('editor knowledge tools (TypeScript language server)', () => {
  let api: ArborApi;
  suiteSetup(async function () {
    this.timeout(150_000);
    await mkdir(workspaceFile(FOLDER), { recursive: true });
    await writeFile(workspaceFile(PRICE), PRICE_TEXT);
    await writeFile(workspaceFile(CART), CART_TEXT);
    api = await activateArbor();
    await api.app.session.newSession();
    // a cold TypeScript server can take a while on a loaded machine: wait for its first report
    // (TypeScript reports problems for files in editor tabs only)
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(workspaceFile(CART))), { preview: false });
    const deadline = Date.now() + 90_000;
    while ((await errorsOf(CART)).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal((await errorsOf(CART)).length, 1, 'the TypeScript server reported the type error of cart.ts');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(workspaceFile(FOLDER), { recursive: true, force: true });
  });

  test('the editor tools are in the live tool list as read-only built-ins', () => {
    for (const name of ['diagnostics', 'definition', 'references', 'symbols']) {
      const tool = api.tools.get(name);
      assert.ok(tool, name);
      assert.equal(tool.effect.kind, 'readOnly');
      assert.deepEqual(tool.origin, { kind: 'builtin' });
    }
  });

  test('diagnostics, definition, references and symbols through the agent loop', async function () {
    this.timeout(120_000);
    const [problems, definition, references, outline, outside] = await toolTurn(api, [
      { name: 'diagnostics', input: { path: CART } },
      { name: 'definition', input: { path: CART, line: 3, symbol: 'priceOf' } },
      { name: 'references', input: { path: PRICE, symbol: 'priceOf' } },
      { name: 'symbols', input: { path: PRICE } },
      { name: 'definition', input: { path: '../../etc/passwd', symbol: 'root' } },
    ]);
    assert.match(problems!, new RegExp(`^1 error in 1 file:\\n${CART}:3:14: error: Type 'string' is not assignable to type 'number'\\. \\[ts 2322\\]$`));
    assert.equal(definition, `Definition of \`priceOf\` (${CART}:3:30):\n${PRICE}:1:17: export function priceOf(cents: number): string {`);
    assert.match(references!, /^4 references to `priceOf` \(arbor-editor\/price\.ts:1:17\):/);
    for (const place of [`${PRICE}:1:17: export function priceOf`, `${CART}:1:10: import { priceOf }`, `${CART}:3:30: export const total`, `${CART}:4:22: export const label`]) {
      assert.ok(references!.includes(place), `${place} in\n${references}`);
    }
    assert.match(outline!, /^Symbols in arbor-editor\/price\.ts:\nFunction priceOf/);
    assert.match(outside!, /outside the workspace/);
    assert.deepEqual(asked, [], 'read-only tools run without asking');
  });

  test('an edit that introduces a type error gets "Problems after this edit" naming it', async function () {
    this.timeout(120_000);
    const [edited] = await toolTurn(api, [{ name: 'edit', input: { path: CART, oldText: 'export const label = ', newText: 'export const label: boolean = ' } }]);
    assert.match(edited!, /^Edited arbor-editor\/cart\.ts/);
    assert.deepEqual(asked, ['edit']);
    assert.match(edited!, /Problems after this edit \(1 new error reported by the editor's language server\):\narbor-editor\/cart\.ts:4:14: error: Type 'string' is not assignable to type 'boolean'\. \[ts 2322\]/);
    assert.match(edited!, /\(1 error that was there before this edit remains\.\)/);
  });

  test('with arbor.tools.diagnosticsAfterEdit off an edit gets no note', async function () {
    this.timeout(120_000);
    await vscode.workspace.getConfiguration('arbor.tools').update('diagnosticsAfterEdit', false, vscode.ConfigurationTarget.Global);
    try {
      const [edited] = await toolTurn(api, [{ name: 'edit', input: { path: CART, oldText: 'export const total: number', newText: 'export const total: Date' } }]);
      assert.match(edited!, /^Edited arbor-editor\/cart\.ts/);
      assert.doesNotMatch(edited!, /Problems after this edit/);
    } finally {
      await vscode.workspace.getConfiguration('arbor.tools').update('diagnosticsAfterEdit', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
