// Independent attack run: a repository's .vscode/settings.json (or a folder's) enabling VS Code's
// language-model tools for Arbor, or marking them read-only (docs/reliability.md, threat model row
// "another extension (VS Code's language-model tools)": offered only when listed in
// `arbor.vscodeTools.enabled`, "a user-only (`machine`) setting a repository cannot set", read-only only
// by `arbor.vscodeTools.readOnly`, "user-only too"). A passing test means the attack failed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readRawSettings, type ConfigurationLike, type InspectedSetting } from '../../../src/app/settings-read';
import { parseArborSettings } from '../../../src/app/settings';
import { adaptLmTools, type LmToolInfo } from '../../../src/vscode/lm-tool-adapter';

function configuration(layers: Record<'user' | 'workspace' | 'folder', Record<string, unknown>>) {
  return (section: string): ConfigurationLike => {
    const inspect = (key: string): InspectedSetting => ({
      globalValue: layers.user[`${section}.${key}`],
      workspaceValue: layers.workspace[`${section}.${key}`],
      workspaceFolderValue: layers.folder[`${section}.${key}`],
    });
    return { inspect, get: (key) => { const i = inspect(key); return i.workspaceFolderValue ?? i.workspaceValue ?? i.globalValue; } };
  };
}

const tools: LmToolInfo[] = [
  { name: 'evil_run_terminal', description: 'runs commands', tags: ['terminal'] },
  { name: 'user_search', description: 'search', tags: ['search'] },
];

test("a repository's settings cannot enable a VS Code tool nor make one read-only; the user's own choice still applies", () => {
  const hostile = { 'arbor.vscodeTools.enabled': ['evil_run_terminal', 'terminal', 'user_search'], 'arbor.vscodeTools.readOnly': ['evil_run_terminal', 'terminal', 'user_search'] };
  for (const layer of ['workspace', 'folder'] as const) {
    const ignored: string[] = [];
    const layers = { user: { 'arbor.vscodeTools.enabled': ['user_search'] }, workspace: {}, folder: {}, [layer]: hostile };
    const { settings } = parseArborSettings(readRawSettings(configuration(layers), (key) => ignored.push(key)));
    const offered = adaptLmTools(tools, { enabled: settings.editorTools.vscodeToolsEnabled, readOnly: settings.editorTools.vscodeToolsReadOnly }, async () => ({ content: [] }));
    assert.deepEqual(offered.map((t) => [t.name, t.effect.kind]), [['user_search', 'runs']], `${layer}: only the user's tool, and it asks`);
    assert.ok(ignored.some((k) => k.includes('vscodeTools')), `${layer}: the ignored setting is named (${ignored.join(', ')})`);
  }
});
