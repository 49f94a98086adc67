import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

interface Section {
  id: string;
  title: string;
  properties: Record<string, unknown>;
}
const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { contributes: { configuration: Section[] } };
const nls = JSON.parse(readFileSync(new URL('../../../package.nls.json', import.meta.url), 'utf8')) as Record<string, string>;
const sections = manifest.contributes.configuration;
const title = (section: Section) => nls[section.title.replace(/^%|%$/g, '')];
const sectionOf = (key: string) => title(sections.find((s) => key in s.properties)!);

test('settings sit in categories of their own in the Settings UI, General first', () => {
  assert.deepEqual(sections.map(title), ['General', 'Models and Providers', 'Tools and Approvals', 'Compaction', 'Branch Summaries', 'Sessions', 'File Checkpoints']);
  assert.equal(sectionOf('arbor.thinkingLevel'), 'General');
  assert.equal(sectionOf('arbor.model'), 'Models and Providers');
  assert.equal(sectionOf('arbor.providers.local.baseUrl'), 'Models and Providers');
  assert.equal(sectionOf('arbor.tools.approval'), 'Tools and Approvals');
  assert.equal(sectionOf('arbor.sessions.directory'), 'Sessions');
  for (const section of sections) {
    const keys = Object.keys(section.properties);
    if (title(section) === 'Compaction') assert.ok(keys.every((k) => k.startsWith('arbor.compaction.')), `only compaction settings under Compaction: ${keys}`);
  }
});
