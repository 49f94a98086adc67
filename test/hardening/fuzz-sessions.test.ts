// Fuzzing the session loader: mutated files (byte flips, truncation, shuffled and duplicated lines,
// invalid UTF-8, random JSON values, cyclic and self parents, 10^5-deep chains, multi-MB lines).
// For every file: open never throws except a SessionFileError for a bad header; every bad line is
// reported with its line number (checked against an independent line-by-line oracle); every entry of
// the untouched prefix is present; buildContext / getTree / getBranch terminate within a time budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionFileError } from '../../src/session/errors';
import { DEFER_FROM_BYTES } from '../../src/session/scan';
import { SessionStore } from '../../src/session/store';
import { seededRandom, suiteSeed } from './crash-harness';
import { reportFigures, trials } from './profile';
import { headerLine, makeSession, type CorpusFile } from './session-corpus';

type Random = () => number;
const NL = 0x0a;
const BUDGET_MS = 3000; // per ordinary file (open + every query); they take a few ms
const DEEP_BUDGET_MS = 20_000; // per 10^5-entry or multi-MB file

function splitLines(data: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = data.indexOf(NL); nl >= 0; nl = data.indexOf(NL, start)) {
    lines.push(data.subarray(start, nl));
    start = nl + 1;
  }
  if (start < data.length) lines.push(data.subarray(start));
  return lines;
}
const joinLines = (lines: Buffer[]) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));

const randomJsonValues = [
  '0', '-1e309', 'null', 'true', '"string"', '[]', '[1,[2,[3]]]', '{}', '{"type":"message"}', '{"type":5,"id":"x"}',
  '{"type":"message","id":"","parentId":null,"timestamp":"t"}', '{"type":"message","id":"zz","parentId":7,"timestamp":"t"}',
  '{"type":"compaction","id":"cmp1","parentId":null,"timestamp":"2025","summary":1}', '{"type":"session","version":3,"id":"s2"}',
  '{"type":"label","id":"lab1","parentId":null,"timestamp":"x","targetId":"nope"}', '{"__proto__":{"polluted":1},"type":"x","id":"p1","parentId":null,"timestamp":"t"}',
  '{"type":"message","id":"constructor","parentId":"toString","timestamp":"t","message":{"role":"user","content":[]}}',
];

/** One or more random mutations; returns the new bytes and a name for failure messages. */
function mutate(file: CorpusFile, random: Random): { data: Buffer; how: string[] } {
  let data = file.data;
  const how: string[] = [];
  const rounds = 1 + Math.floor(random() * 3);
  for (let r = 0; r < rounds; r++) {
    const kind = Math.floor(random() * 9);
    const lines = splitLines(data);
    const anyLine = () => Math.floor(random() * lines.length);
    const bodyLine = () => 1 + Math.floor(random() * Math.max(1, lines.length - 1));
    switch (kind) {
      case 0: {
        data = Buffer.from(data);
        const flips = 1 + Math.floor(random() * 8);
        for (let i = 0; i < flips && data.length > 0; i++) data[Math.floor(random() * data.length)] = Math.floor(random() * 256);
        how.push(`flip${flips}`);
        break;
      }
      case 1:
        data = data.subarray(0, Math.floor(random() * data.length));
        how.push('truncate');
        break;
      case 2: {
        const body = lines.slice(1);
        for (let i = body.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [body[i], body[j]] = [body[j]!, body[i]!];
        }
        data = joinLines(random() < 0.9 ? [lines[0]!, ...body] : [...body, lines[0]!]);
        how.push('shuffle');
        break;
      }
      case 3: {
        const copies = 1 + Math.floor(random() * 5);
        for (let i = 0; i < copies; i++) lines.splice(anyLine(), 0, lines[anyLine()]!);
        data = joinLines(lines);
        how.push('duplicate');
        break;
      }
      case 4: {
        const bad = [Buffer.from([0xff, 0xfe]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]), Buffer.from([0x00])];
        const at = Math.floor(random() * data.length);
        data = Buffer.concat([data.subarray(0, at), bad[Math.floor(random() * bad.length)]!, data.subarray(at)]);
        how.push('utf8');
        break;
      }
      case 5: {
        lines.splice(bodyLine(), 0, Buffer.from(randomJsonValues[Math.floor(random() * randomJsonValues.length)]!));
        data = joinLines(lines);
        how.push('json');
        break;
      }
      case 6: {
        // Parent pointers forming cycles and self-parents.
        const at = bodyLine();
        const target = bodyLine();
        try {
          const value = JSON.parse(lines[at]!.toString());
          const other = JSON.parse(lines[target]!.toString());
          value.parentId = random() < 0.3 ? value.id : other.id;
          lines[at] = Buffer.from(JSON.stringify(value));
          data = joinLines(lines);
          how.push('cycle');
        } catch {
          how.push('cycle-skipped');
        }
        break;
      }
      case 7: {
        lines.splice(bodyLine(), 0, Buffer.from(random() < 0.5 ? '' : '   \r'), Buffer.from('\r'));
        data = joinLines(lines);
        how.push('blank');
        break;
      }
      default: {
        lines.splice(bodyLine(), 1);
        data = joinLines(lines);
        how.push('drop');
      }
    }
  }
  return { data, how };
}

// ---- the oracle -----------------------------------------------------------------------------------

interface Expected {
  /** line → problem kinds acceptable there; lines not listed must have no problem */
  problems: Map<number, string[]>;
  /** ids that must be present (first occurrence of each well-formed entry line) */
  ids: string[];
  headerOk: boolean;
  headerVersion: number | undefined;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The id of a damaged line the store still indexes: a long line (DEFER_FROM_BYTES or more) of a message-like
 * entry (whose body is read on demand) that starts with plain type, id, parentId and timestamp and ends with
 * a brace (src/session/line-head.ts).
 */
function intactHeadId(text: string): string | undefined {
  const head = /^\{"type":"([^"\\\x00-\x1f]*)","id":"([^"\\\x00-\x1f]*)","parentId":(?:null|"[^"\\\x00-\x1f]*"),"timestamp":"[^"\\\x00-\x1f]*"[,}]/.exec(text);
  if (!head || !/\}[ \t\r\n]*$/.test(text) || head[2] === '') return undefined; // JSON whitespace may follow the brace
  return ['message', 'custom_message', 'custom', 'branch_summary'].includes(head[1]!) ? head[2] : undefined;
}

function expectFor(data: Buffer): Expected {
  const lines = splitLines(data);
  const terminated = data.length > 0 && data[data.length - 1] === NL;
  const problems = new Map<number, string[]>();
  const ids: string[] = [];
  const seen = new Set<string>();
  let header: unknown;
  let headerFound = false;
  let headerLineNo = 0;
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    let text = raw.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const last = index === lines.length - 1 && !terminated;
      const keptId = last || raw.length < DEFER_FROM_BYTES ? undefined : intactHeadId(text);
      if (keptId !== undefined && seen.has(keptId)) problems.set(lineNo, ['duplicate-id']);
      else if (keptId !== undefined) {
        // its head is intact: kept in the tree as an unreadable entry, reported when read
        seen.add(keptId);
        ids.push(keptId);
        problems.set(lineNo, ['invalid-json']);
      } else problems.set(lineNo, [last ? 'torn-final-line' : 'invalid-json']);
      return;
    }
    if (!headerFound) {
      headerFound = true;
      header = value;
      headerLineNo = lineNo;
      return;
    }
    // A v1 file has no ids: migration gives every entry a fresh id and chains it to the previous one,
    // so a damaged id or parentId there is repaired, not a bad line (docs/pi-compatibility.md "Session files").
    const v1 = isObj(header) && (header.version === undefined || (typeof header.version === 'number' && header.version < 2));
    const linked = v1 || (isObj(value) && typeof value.id === 'string' && value.id.length > 0 && (value.parentId === null || typeof value.parentId === 'string'));
    const base = isObj(value) && typeof value.type === 'string' && linked && typeof value.timestamp === 'string';
    const id = base ? (value as { id: string }).id : '';
    if (!base) problems.set(lineNo, ['invalid-entry']);
    else if (seen.has(id)) problems.set(lineNo, ['duplicate-id']);
    else {
      seen.add(id);
      ids.push(id);
      problems.set(lineNo, ['invalid-entry', 'none']); // a known type with a malformed shape is reported but kept
    }
  });
  const firstProblem = Math.min(...[...problems].filter(([, kinds]) => !kinds.includes('none')).map(([line]) => line), Infinity);
  const headerOk = isObj(header) && header.type === 'session' && typeof header.id === 'string' && (header.version === undefined || typeof header.version === 'number') && !(firstProblem < headerLineNo); // garbage before the header: refused
  return { problems, ids, headerOk, headerVersion: isObj(header) && typeof header.version === 'number' ? header.version : isObj(header) ? 1 : undefined };
}

interface Outcome {
  ms: number;
  entries: number;
  problems: number;
  refused: boolean;
}

/** Opens `data` and checks it against the oracle and the untouched prefix of `original`. */
async function checkFile(dir: string, name: string, data: Buffer, original: CorpusFile | undefined, budgetMs: number, what: string): Promise<Outcome> {
  const file = join(dir, name);
  writeFileSync(file, data);
  const expected = expectFor(data);
  const started = performance.now();
  let store: SessionStore;
  try {
    store = await SessionStore.open(file);
    store.readAllEntries(); // opening reads only the leaf context's bodies; the full report needs them all
  } catch (error) {
    assert.ok(error instanceof SessionFileError, `${what}: open threw ${(error as Error)?.stack ?? String(error)}`);
    assert.ok(!expected.headerOk, `${what}: refused a file whose header is valid: ${error.message}`);
    assert.ok(error.message.startsWith(file) && error.reason.length > 10, `${what}: unclear error "${error.message}"`);
    return { ms: performance.now() - started, entries: 0, problems: 0, refused: true };
  }
  assert.ok(expected.headerOk, `${what}: opened although the header is invalid`);
  const migrated = (expected.headerVersion ?? 3) < 3;
  // Every bad line is reported, at its line number, and nothing else is.
  for (const problem of store.loadReport) {
    if (problem.line === 0) {
      if (problem.kind === 'unknown-type') {
        // A flipped byte in "type" makes a well-formed entry of a type nobody knows: kept, reported once.
        const type = /unknown type (".*") was ignored/.exec(problem.message)?.[1];
        assert.ok(type && data.toString('utf8').includes(`"type":${type}`), `${what}: unknown type not in the file: ${JSON.stringify(problem)}`);
        continue;
      }
      assert.ok(problem.kind === 'migrated' && migrated, `${what}: unexpected ${JSON.stringify(problem)}`);
      continue;
    }
    const allowed = expected.problems.get(problem.line);
    if (migrated && problem.kind === 'duplicate-id') continue; // v1 migration re-assigns ids
    assert.ok(allowed?.includes(problem.kind), `${what}: line ${problem.line} reported as ${problem.kind}, expected ${JSON.stringify(allowed ?? 'no problem')}`);
  }
  const reported = new Set(store.loadReport.map((p) => p.line));
  for (const [line, kinds] of expected.problems) {
    if (kinds.includes('none') || (migrated && kinds.includes('duplicate-id'))) continue;
    assert.ok(reported.has(line), `${what}: bad line ${line} (${kinds}) not reported; report: ${JSON.stringify(store.loadReport.slice(0, 5))}`);
  }
  if (!migrated) {
    for (const id of expected.ids) assert.ok(store.getEntry(id), `${what}: well-formed entry ${id} missing`);
    assert.equal(store.entryCount, expected.ids.length, `${what}: entry count`);
    // The untouched prefix of the original opens with all its entries.
    if (original) {
      let same = 0;
      while (same < data.length && same < original.data.length && data[same] === original.data[same]) same++;
      const originalLines = splitLines(original.data);
      let end = 0;
      originalLines.forEach((line, i) => {
        end += line.length + 1;
        if (i > 0 && end <= same) assert.ok(store.getEntry(original.ids[i - 1]!), `${what}: entry ${original.ids[i - 1]} of the intact prefix missing`);
      });
    }
  }
  exerciseQueries(store, what);
  const ms = performance.now() - started;
  assert.ok(ms < budgetMs, `${what}: took ${ms.toFixed(0)} ms (budget ${budgetMs} ms)`);
  return { ms, entries: store.entryCount, problems: store.loadReport.length, refused: false };
}

/** Every read API must terminate on any tree (cycles, self-parents, orphans) and stay consistent. */
function exerciseQueries(store: SessionStore, what: string): void {
  const entries = store.getEntries();
  const tree = store.getTree();
  let nodes = 0;
  const stack = [...tree];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const node = stack.pop()!;
    assert.ok(!seen.has(node.entry.id), `${what}: entry ${node.entry.id} appears twice in getTree()`);
    seen.add(node.entry.id);
    nodes++;
    stack.push(...node.children);
  }
  assert.equal(nodes, entries.length, `${what}: getTree() must show every entry exactly once`);
  const probes = [undefined, ...pickSome(entries, 6).map((e) => e.id), 'no-such-id'];
  for (const id of probes) {
    const branch = store.getBranch(id);
    assert.ok(branch.length <= entries.length, `${what}: getBranch longer than the session`);
    const context = store.buildContext(id);
    assert.ok(Array.isArray(context.messages), `${what}: buildContext`);
    if (id) store.getChildren(id);
  }
  if (entries.length > 0) {
    store.branch(entries[entries.length - 1]!.id);
    store.buildContext();
  }
}

function pickSome<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return list.slice();
  const step = Math.floor(list.length / n);
  return Array.from({ length: n }, (_, i) => list[i * step]!);
}

// ---- the suites -----------------------------------------------------------------------------------

test('mutated session files: never a crash or hang, every bad line reported, the valid prefix opens', async (t) => {
  const total = trials(1000, 10_000);
  const seed = suiteSeed();
  const random = seededRandom(seed);
  const dir = mkdtempSync(join(tmpdir(), 'arbor-fuzz-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const corpus = Array.from({ length: 12 }, (_, i) => makeSession(random, 5 + i * 15));
  let refused = 0;
  let problems = 0;
  let slowest = 0;
  const started = Date.now();
  const mutations = new Map<string, number>();
  for (let i = 0; i < total; i++) {
    const original = corpus[i % corpus.length]!;
    const { data, how } = mutate(original, random);
    for (const h of how) mutations.set(h, (mutations.get(h) ?? 0) + 1);
    const outcome = await checkFile(dir, `f${i % 50}.jsonl`, data, original, BUDGET_MS, `seed ${seed} file ${i} [${how.join(',')}]`);
    if (outcome.refused) refused++;
    problems += outcome.problems;
    slowest = Math.max(slowest, outcome.ms);
  }
  reportFigures('fuzz-sessions', {
    files: total,
    seed,
    refusedBadHeader: refused,
    problemsReported: problems,
    slowestMs: slowest.toFixed(1),
    seconds: ((Date.now() - started) / 1000).toFixed(1),
    mutations: [...mutations].map(([k, v]) => `${k}:${v}`).join(','),
  });
  assert.ok(refused < total / 2, 'most mutated files keep their header and must open');
});

function chain(count: number, cycle: 'none' | 'loop' | 'self'): CorpusFile {
  const parts = [headerLine('deep')];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `d${i.toString(36).padStart(7, '0')}`;
    let parentId: string | null = i === 0 ? null : ids[i - 1]!;
    if (i === 0 && cycle === 'loop') parentId = `d${(count - 1).toString(36).padStart(7, '0')}`;
    if (i === count - 1 && cycle === 'self') parentId = id;
    parts.push(JSON.stringify({ type: 'message', id, parentId, timestamp: '2025-01-01T00:00:01.000Z', message: { role: 'user', content: `q${i}`, timestamp: i } }));
    ids.push(id);
  }
  return { data: Buffer.from(parts.join('\n') + '\n'), ids };
}

test('10^5-deep chains, a 10^5-long parent cycle and a self-parent: open and every query terminate', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-fuzz-deep-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const depth = 100_000;
  for (const cycle of ['none', 'loop', 'self'] as const) {
    const file = chain(depth, cycle);
    const outcome = await checkFile(dir, `deep-${cycle}.jsonl`, file.data, file, DEEP_BUDGET_MS, `deep chain (${cycle})`);
    assert.equal(outcome.entries, depth);
    const store = await SessionStore.open(join(dir, `deep-${cycle}.jsonl`));
    const branch = store.getBranch();
    assert.equal(branch.length, cycle === 'self' ? 1 : depth, `deep chain (${cycle}): path to root`);
    reportFigures(`fuzz-deep-${cycle}`, { entries: depth, bytes: file.data.length, openAndQueriesMs: outcome.ms.toFixed(0) });
  }
});

test('multi-MB lines (valid, garbage, torn, invalid UTF-8) are loaded or reported within budget', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-fuzz-huge-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const random = seededRandom(suiteSeed());
  const base = makeSession(random, 20);
  const mb = 1024 * 1024;
  const hugeEntry = JSON.stringify({ type: 'message', id: 'huge0001', parentId: base.ids[base.ids.length - 1], timestamp: '2025-01-02T00:00:00.000Z', message: { role: 'user', content: 'h'.repeat(6 * mb), timestamp: 1 } });
  const garbage = Buffer.alloc(5 * mb, 0x7b); // "{{{{…"
  const invalidUtf8 = Buffer.concat([Buffer.from('{"type":"message","id":"bad8","parentId":null,"timestamp":"t","message":{"role":"user","content":"'), Buffer.alloc(3 * mb, 0xff), Buffer.from('"}}')]);
  const variants: [string, Buffer][] = [
    ['valid', Buffer.concat([base.data, Buffer.from(hugeEntry + '\n')])],
    ['garbage', Buffer.concat([base.data, garbage, Buffer.from('\n')])],
    ['torn', Buffer.concat([base.data, Buffer.from(hugeEntry.slice(0, 5 * mb))])],
    ['utf8', Buffer.concat([base.data, invalidUtf8, Buffer.from('\n'), Buffer.from(hugeEntry + '\n')])],
  ];
  for (const [name, data] of variants) {
    const outcome = await checkFile(dir, `huge-${name}.jsonl`, data, base, DEEP_BUDGET_MS, `huge line (${name})`);
    assert.ok(outcome.entries >= base.ids.length, `huge line (${name}): the entries before it are kept`);
    reportFigures(`fuzz-huge-${name}`, { bytes: data.length, ms: outcome.ms.toFixed(0), problems: outcome.problems });
  }
});
