#!/usr/bin/env node
// Generates test/fixtures/pi-<major.minor>/ (pi-1.5 with pi 1.5.2, pi-1.6 with pi 1.6.0) by running pi's
// own SessionManager, so Arbor's reading of pi sessions is checked against what pi itself wrote and
// computed (CONTRIBUTING.md, "Regenerating the pi fixtures"). For every session it writes the JSONL file
// and `<name>.contexts.json`: for every leaf (entry without children), the context pi's
// `buildSessionContext` returns. With pi 1.6 it also writes `new-shapes`: the shapes pi 1.6 added, each
// made by pi's own code (pi-1.6-shapes.mjs).
//
// Run with Node >= 22.19 and pi's bundle:  PI_BUNDLE=/tmp/pi/package/dist/bundle/index.js node22 scripts/make-pi-fixtures.mjs
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPiBundle } from './lib/pi-bundle.mjs';
import { newShapesSession } from './lib/pi-1.6-shapes.mjs';

const pi = await loadPiBundle();
const series = pi.VERSION.split('.').slice(0, 2).join('.');
const outDir = join(import.meta.dirname, '..', 'test', 'fixtures', `pi-${series}`);
const work = mkdtempSync(join(tmpdir(), 'pi-fixtures-'));
const CWD = '/work/project';
let clock = Date.parse('2026-01-01T00:00:00.000Z');
const now = () => (clock += 1000);

function usage(input, output, total) {
  return { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total } };
}
const user = (text) => ({ role: 'user', content: [{ type: 'text', text }], timestamp: now() });
const assistant = (text, cost = 0.01) => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  api: 'anthropic-messages',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  usage: usage(100, 20, cost),
  stopReason: 'stop',
  timestamp: now(),
});
const toolCall = (id) => ({
  role: 'assistant',
  content: [{ type: 'text', text: 'reading' }, { type: 'toolCall', id, name: 'read', arguments: { path: 'a.txt' } }],
  api: 'anthropic-messages',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  usage: usage(120, 30, 0.02),
  stopReason: 'toolUse',
  timestamp: now(),
});
const toolResult = (id, text) => ({ role: 'toolResult', toolCallId: id, toolName: 'read', content: [{ type: 'text', text }], isError: false, timestamp: now() });
const system = (content, extra = {}) => ({ role: 'system', content, ...extra, timestamp: now() });

/** Branches, labels, context edits, system messages, usage entries, a branch summary and a compaction. */
function mainSession() {
  const sm = pi.SessionManager.create(CWD, work);
  sm.appendMessage(system('You are a careful assistant.'));
  const u1 = sm.appendMessage(user('first question'));
  sm.appendMessage(assistant('first answer'));
  sm.appendThinkingLevelChange('high');
  const u2 = sm.appendMessage(user('secret: hunter2, please forget it'));
  const a2 = sm.appendMessage(assistant('noted'));
  sm.appendLabelChange(u1, 'start');
  sm.appendMessage(toolCall('call_1'));
  const r1 = sm.appendMessage(toolResult('call_1', 'huge file content'));
  sm.appendMessage(assistant('the file is big'));
  sm.appendContextEdit(u2, { content: [{ type: 'text', text: 'secret: [removed]' }] });
  sm.appendContextEdit(r1, null);
  sm.appendContextEdit(a2, { content: 'noted (edited)' });
  sm.appendMessage(system('Also: answer in English.', { sections: { style: 'short answers' } }));
  sm.appendUsage('summary', 'anthropic', 'claude-haiku-4-5', usage(500, 50, 0.003), 'title generation');
  sm.appendSessionInfo('pi 1.5 fixture');
  const beforeBranch = sm.appendMessage(user('continue'));
  sm.appendMessage(assistant('continuing'));
  sm.branchWithSummary(a2, 'The user explored a side path.', undefined, undefined, usage(800, 80, 0.004));
  sm.appendMessage(user('back on the branch'));
  sm.appendMessage(assistant('yes'));
  sm.branch(beforeBranch);
  sm.appendModelChange('openai', 'gpt-5');
  sm.appendCustomMessageEntry('note', 'a custom note', true);
  const keep = sm.appendMessage(user('kept after compaction'));
  sm.appendMessage(assistant('kept answer'));
  sm.appendCompaction('Summary of the early conversation.', keep, 12345, { readFiles: ['a.txt'], modifiedFiles: [] }, false, usage(3000, 300, 0.05));
  sm.appendMessage(user('after compaction'));
  sm.appendMessage(assistant('after answer'));
  sm.appendLabelChange(keep, 'kept');
  sm.appendMessage(user('last'));
  return sm;
}

function leavesOf(entries) {
  const parents = new Set(entries.map((e) => e.parentId).filter(Boolean));
  return entries.filter((e) => !parents.has(e.id)).map((e) => e.id);
}

function emit(name, file) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(join(outDir, `${name}.jsonl`), text);
  const entries = text.split('\n').filter(Boolean).map((line) => JSON.parse(line)).filter((e) => e.type !== 'session');
  const contexts = {};
  for (const leaf of leavesOf(entries)) contexts[leaf] = pi.buildSessionContext(entries, leaf);
  writeFileSync(join(outDir, `${name}.contexts.json`), JSON.stringify({ piVersion: pi.VERSION, contexts }, null, 1) + '\n');
}

mkdirSync(outDir, { recursive: true });
const main = mainSession();
const mainFile = main.getSessionFile();
emit('branches-edits-system', mainFile);
// A fork through pi's createBranchedSession from a leaf whose path has label entries in the middle.
const reopened = pi.SessionManager.open(mainFile, work);
const forkLeaf = reopened.getLeafId();
const before = new Set(readdirSync(work));
reopened.createBranchedSession(forkLeaf);
const forkFile = reopened.getSessionFile();
if (!forkFile || before.has(forkFile.split('/').pop())) throw new Error('pi did not write a fork');
emit('fork', forkFile);
if (series !== '1.5') emit('new-shapes', await newShapesSession(pi, work, CWD, now));
rmSync(work, { recursive: true, force: true });
console.log(`wrote ${outDir} with pi ${pi.VERSION}`);
