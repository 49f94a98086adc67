// Property tests on random trees: the store's (cached, incremental) context equals a slow reference walk
// for every leaf; nothing is lost across append/reload; unknown entries round-trip byte-for-byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentMessage } from '../../../src/core/messages';
import type { SessionEntry } from '../../../src/session/entries';
import { SessionStore } from '../../../src/session/store';
import { assistant, tempDir, user } from './helpers';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Reference: pi's rules written as plainly as possible (no shared code with the implementation). */
function referenceContext(entries: readonly SessionEntry[], leafId: string | null) {
  if (leafId === null) return { messages: [] as AgentMessage[], thinkingLevel: 'off', model: null as unknown };
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: SessionEntry[] = [];
  for (let e = byId.get(leafId); e; e = e.parentId === null ? undefined : byId.get(e.parentId)) path.unshift(e);
  let thinkingLevel = 'off';
  let model: unknown = null;
  let compaction: SessionEntry | undefined;
  for (const e of path) {
    if (e.type === 'thinking_level_change') thinkingLevel = e.thinkingLevel ?? 'off';
    if (e.type === 'model_change') model = { provider: e.provider, modelId: e.modelId };
    if (e.type === 'message' && e.message.role === 'assistant') model = { provider: e.message.provider, modelId: e.message.model };
    if (e.type === 'compaction') compaction = e;
  }
  const toMessage = (e: SessionEntry): AgentMessage[] => {
    if (e.type === 'message') return [e.message];
    if (e.type === 'custom_message') return [{ role: 'custom', customType: e.customType, content: e.content, display: e.display, details: e.details, timestamp: Date.parse(e.timestamp) }];
    if (e.type === 'branch_summary' && e.summary) return [{ role: 'branchSummary', summary: e.summary, fromId: e.fromId, timestamp: Date.parse(e.timestamp) }];
    return [];
  };
  if (!compaction || compaction.type !== 'compaction') return { messages: path.flatMap(toMessage), thinkingLevel, model };
  const ci = path.indexOf(compaction);
  const ki = path.slice(0, ci).findIndex((e) => e.id === compaction.firstKeptEntryId);
  const messages: AgentMessage[] = [{ role: 'compactionSummary', summary: compaction.summary, tokensBefore: compaction.tokensBefore, timestamp: Date.parse(compaction.timestamp) }];
  if (ki >= 0) messages.push(...path.slice(ki, ci).flatMap(toMessage));
  messages.push(...path.slice(ci + 1).flatMap(toMessage));
  return { messages, thinkingLevel, model };
}

async function randomSession(dir: string, seed: number, steps: number) {
  const random = rng(seed);
  const s = await SessionStore.create({ dir, cwd: '/p' });
  for (let i = 0; i < steps; i++) {
    const r = random();
    const entries = s.getEntries();
    if (entries.length > 0 && r < 0.12) s.branch(entries[Math.floor(random() * entries.length)]!.id);
    else if (r < 0.14) s.resetLeaf();
    const k = random();
    const path = s.getBranch();
    if (k < 0.4) await s.appendMessage(user(`u${i}`));
    else if (k < 0.7) await s.appendMessage(assistant(`a${i}`, `p${i % 3}`, `m${i % 5}`));
    else if (k < 0.76) await s.appendThinkingLevelChange(['low', 'high', 'off'][i % 3]!);
    else if (k < 0.8) await s.appendModelChange('prov', `model${i}`);
    else if (k < 0.86 && path.length > 0) {
      const kept = random() < 0.8 ? path[Math.floor(random() * path.length)]!.id : 'nowhere';
      await s.appendCompaction({ summary: `c${i}`, firstKeptEntryId: kept, tokensBefore: i });
    } else if (k < 0.9) {
      await s.branchWithSummary(entries.length && random() < 0.9 ? entries[Math.floor(random() * entries.length)]!.id : null, random() < 0.2 ? '' : `b${i}`);
    } else if (k < 0.93) await s.appendCustomMessage('x', `cm${i}`, random() < 0.5);
    else if (k < 0.95) await s.appendCustomEntry('state', { i });
    else if (k < 0.98 && entries.length > 0) await s.appendLabelChange(entries[Math.floor(random() * entries.length)]!.id, random() < 0.3 ? undefined : `l${i}`);
    else await s.appendSessionInfo(`name ${i}`);
    // Interleave context builds so the store's incremental cache is exercised along the way.
    if (random() < 0.5) assert.deepEqual(s.buildContext(), referenceContext(s.getEntries(), s.getLeafId()), `seed ${seed} step ${i}`);
  }
  return s;
}

test('random trees: context of every leaf equals the reference walk; reload loses nothing', async (t) => {
  const dir = tempDir(t);
  for (let seed = 1; seed <= 12; seed++) {
    const s = await randomSession(dir, seed, 70);
    const entries = s.getEntries();
    const reloaded = await SessionStore.open(s.file);
    assert.deepEqual(reloaded.getEntries(), entries, `seed ${seed}: reload equals memory`);
    assert.deepEqual(reloaded.loadReport, []);
    for (const e of entries) {
      const expected = referenceContext(entries, e.id);
      assert.deepEqual(s.buildContext(e.id), expected, `seed ${seed} leaf ${e.id}`);
      assert.deepEqual(reloaded.buildContext(e.id), expected);
    }
    // every entry appears exactly once in the tree
    const seen = new Set<string>();
    const stack = [...reloaded.getTree()];
    while (stack.length) {
      const n = stack.pop()!;
      assert.ok(!seen.has(n.entry.id));
      seen.add(n.entry.id);
      stack.push(...n.children);
    }
    assert.equal(seen.size, entries.length);
  }
});

test('random unknown entries and extra fields round-trip byte-for-byte through appends and rewrites', async (t) => {
  const dir = tempDir(t);
  const random = rng(99);
  for (let round = 0; round < 8; round++) {
    const file = join(dir, `r${round}.jsonl`);
    const lines = ['{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/","weird":[1,{"a":null}]}'];
    let parent: string | null = null;
    for (let i = 0; i < 30; i++) {
      const id = `e${round}x${i}`;
      const extra = random() < 0.5 ? `,"x${i}":${JSON.stringify({ n: random(), s: 'ü\u2028"' })}` : '';
      const line =
        random() < 0.4
          ? `{"type":"omp_${i % 4}","id":"${id}","parentId":${JSON.stringify(parent)},"timestamp":"2025-01-01T00:00:0${i % 10}.000Z","payload":${JSON.stringify({ deep: [i, 'z'] })}${extra}}`
          : `{"type":"message", "id":"${id}","parentId":${JSON.stringify(parent)},"timestamp":"2025-01-01T00:00:0${i % 10}.000Z","message":{"role":"user","content":"t${i}","timestamp":${i}}${extra}}`;
      lines.push(line);
      parent = id;
    }
    writeFileSync(file, lines.join('\n') + '\n');
    const s = await SessionStore.open(file);
    assert.equal(s.getEntries().length, 30);
    const appended = await s.appendMessage(user('new'));
    await s.rewriteEntries(() => undefined);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith(lines.join('\n') + '\n'), `round ${round}: original bytes kept`);
    assert.ok((await SessionStore.open(file)).getEntry(appended.id));
  }
});
