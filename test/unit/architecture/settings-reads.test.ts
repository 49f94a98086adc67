// The `arbor.*` settings are read in one place (docs/architecture.md, "Settings"): only the settings module
// (src/vscode/settings/arbor-settings.ts) asks VS Code's configuration for them, and only the pure reader it
// hands its getConfiguration to (src/app/settings-read.ts) names their sections. Any other call of
// `getConfiguration` must name a section outside Arbor's (e.g. `workbench.welcomePage`) as a literal; a call
// with Arbor's section, no section, or a computed one fails here. The scan reads the syntax tree, so a
// comment mentioning the call is not a hit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '..', '..', '..');
const ALLOWED = new Set(['src/vscode/settings/arbor-settings.ts', 'src/app/settings-read.ts']);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** True when a getConfiguration call may reach an `arbor.*` setting (Arbor's section, none, or not a literal). */
function readsArbor(call: ts.CallExpression): boolean {
  const section = call.arguments[0];
  if (!section) return true;
  if (!ts.isStringLiteralLike(section)) return true;
  return section.text === 'arbor' || section.text.startsWith('arbor.') || section.text === '';
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return ts.isIdentifier(callee) ? callee.text : undefined;
}

/** `file:line` of every getConfiguration call in the text that may read an `arbor.*` setting. */
export function arborReads(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const hits: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && calleeName(node) === 'getConfiguration' && readsArbor(node)) {
      hits.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

test('no file outside the settings module reads an arbor.* setting from the configuration', () => {
  const files = sourceFiles(join(root, 'src')).map((path) => relative(root, path).split('\\').join('/'));
  assert.ok(files.length > 300, `the scan found the sources (${files.length})`);
  const outside = files.filter((file) => !ALLOWED.has(file)).flatMap((file) => arborReads(file, readFileSync(join(root, file), 'utf8')));
  assert.deepEqual(outside, [], 'read arbor.* settings through src/vscode/settings/arbor-settings.ts');
  assert.ok(arborReads('src/vscode/settings/arbor-settings.ts', readFileSync(join(root, 'src/vscode/settings/arbor-settings.ts'), 'utf8')).length > 0, 'the module itself is found by the scan');
});

test('the scan finds planted reads and lets other sections and comments pass', () => {
  const planted = [
    "const a = vscode.workspace.getConfiguration('arbor');",
    "const b = workspace.getConfiguration('arbor.compaction').get('enabled');",
    'const c = vscode.workspace.getConfiguration();',
    'const d = vscode.workspace.getConfiguration(section);',
    'const e = vscode.workspace.getConfiguration(`arbor`);',
  ].join('\n');
  assert.deepEqual(arborReads('x.ts', planted), ['x.ts:1', 'x.ts:2', 'x.ts:3', 'x.ts:4', 'x.ts:5']);
  const fine = [
    "const w = vscode.workspace.getConfiguration('workbench.welcomePage');",
    "// vscode.workspace.getConfiguration('arbor')",
    "/** e.g. `workspace.getConfiguration('arbor.compaction')` */ const x = 1;",
    "const s = 'getConfiguration(\"arbor\")';",
  ].join('\n');
  assert.deepEqual(arborReads('y.ts', fine), []);
});
