// The manifest is ready for localization: every user-facing string in package.json is a %key% placeholder
// resolved from package.nls.json (VS Code loads package.nls.<locale>.json next to it for translations).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls: Record<string, unknown> = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
const contributes = pkg.contributes;

const PLACEHOLDER = /^%([^%\s]+)%$/;

/** Every string value anywhere in `node`, with its JSON path. */
function strings(node: unknown, path = ''): { path: string; value: string }[] {
  if (typeof node === 'string') return [{ path, value: node }];
  if (Array.isArray(node)) return node.flatMap((item, i) => strings(item, `${path}[${i}]`));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
  return [];
}

/** The user-facing fields the brief of issue 9 names, each with its path; all must be placeholders. */
function userFacing(): { path: string; value: unknown }[] {
  const out: { path: string; value: unknown }[] = [
    { path: 'displayName', value: pkg.displayName },
    { path: 'description', value: pkg.description },
    { path: 'capabilities.untrustedWorkspaces.description', value: pkg.capabilities?.untrustedWorkspaces?.description },
  ];
  for (const [i, c] of (contributes.viewsContainers?.activitybar ?? []).entries()) out.push({ path: `viewsContainers.activitybar[${i}].title`, value: c.title });
  for (const [container, views] of Object.entries<any[]>(contributes.views ?? {})) {
    for (const view of views) {
      out.push({ path: `views.${container}.${view.id}.name`, value: view.name });
      if (view.contextualTitle !== undefined) out.push({ path: `views.${container}.${view.id}.contextualTitle`, value: view.contextualTitle });
    }
  }
  for (const welcome of contributes.viewsWelcome ?? []) out.push({ path: `viewsWelcome.${welcome.view}.contents`, value: welcome.contents });
  for (const command of contributes.commands ?? []) out.push({ path: `commands.${command.command}.title`, value: command.title });
  for (const section of contributes.configuration ?? []) {
    out.push({ path: `configuration.${section.id}.title`, value: section.title });
    for (const [name, prop] of Object.entries<any>(section.properties ?? {})) {
      assert.ok(prop.description !== undefined || prop.markdownDescription !== undefined, `${name} has a description`);
      for (const field of ['description', 'markdownDescription', 'deprecationMessage', 'markdownDeprecationMessage']) {
        if (prop[field] !== undefined) out.push({ path: `${name}.${field}`, value: prop[field] });
      }
      for (const field of ['enumDescriptions', 'markdownEnumDescriptions']) {
        for (const [i, value] of (prop[field] ?? []).entries()) out.push({ path: `${name}.${field}[${i}]`, value });
      }
    }
  }
  for (const walkthrough of contributes.walkthroughs ?? []) {
    out.push({ path: `walkthroughs.${walkthrough.id}.title`, value: walkthrough.title });
    out.push({ path: `walkthroughs.${walkthrough.id}.description`, value: walkthrough.description });
    for (const step of walkthrough.steps ?? []) {
      out.push({ path: `walkthroughs.${walkthrough.id}.${step.id}.title`, value: step.title });
      out.push({ path: `walkthroughs.${walkthrough.id}.${step.id}.description`, value: step.description });
    }
  }
  return out;
}

test('every %key% in package.json is defined in package.nls.json with a non-empty string', () => {
  const used = strings(pkg).filter((s) => PLACEHOLDER.test(s.value));
  assert.ok(used.length > 50, `expected the manifest to use placeholders (found ${used.length})`);
  const missing = used.filter((s) => typeof nls[PLACEHOLDER.exec(s.value)![1]!] !== 'string' || (nls[PLACEHOLDER.exec(s.value)![1]!] as string).trim() === '');
  assert.deepEqual(missing.map((s) => `${s.path}: ${s.value}`), []);
});

test('every key in package.nls.json is used by package.json (no stale strings)', () => {
  const used = new Set(strings(pkg).map((s) => PLACEHOLDER.exec(s.value)?.[1]).filter((k): k is string => k !== undefined));
  assert.deepEqual(Object.keys(nls).filter((key) => !used.has(key)), []);
});

test('no untranslated English in titles, view names, settings descriptions, welcome and walkthrough texts', () => {
  const fields = userFacing();
  assert.ok(fields.length >= 60, `collected ${fields.length} user-facing fields`);
  const literal = fields.filter((f) => typeof f.value !== 'string' || !PLACEHOLDER.test(f.value));
  assert.deepEqual(literal.map((f) => `${f.path}: ${JSON.stringify(f.value)}`), []);
});

test('every command has the category "Arbor" and a title', () => {
  const commands: any[] = contributes.commands ?? [];
  assert.ok(commands.length > 0);
  assert.deepEqual(commands.filter((c) => c.category !== 'Arbor').map((c) => c.command), []);
  assert.deepEqual(commands.filter((c) => typeof c.title !== 'string' || c.title === '').map((c) => c.command), []);
});

test('command links in localized texts point at contributed commands', () => {
  const ids = new Set((contributes.commands ?? []).map((c: any) => c.command));
  const links = Object.entries(nls).flatMap(([key, value]) => [...String(value).matchAll(/\(command:([\w.]+)/g)].map((m) => ({ key, id: m[1]! })));
  assert.ok(links.length > 0, 'the welcome and walkthrough texts link commands');
  assert.deepEqual(links.filter((l) => !ids.has(l.id)).map((l) => `${l.key} → ${l.id}`), []);
});

test('every command referenced in menus and keybindings is contributed', () => {
  const ids = new Set((contributes.commands ?? []).map((c: any) => c.command));
  const menuCommands = Object.values<any[]>(contributes.menus ?? {}).flat().map((m) => m.command);
  const keyCommands = (contributes.keybindings ?? []).map((k: any) => k.command);
  assert.deepEqual([...menuCommands, ...keyCommands].filter((id) => !ids.has(id)), []);
});
