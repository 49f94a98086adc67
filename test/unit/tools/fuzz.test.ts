// Hostile and random arguments for every tool: each call must resolve to a well-formed ToolOutput,
// never throw, and never touch anything outside the workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createTools } from '../../../src/agent/tools/index';
import { runTool, type ToolOutput } from '../../../src/agent/tools/types';
import { ctxFor, makeSandbox } from './helpers';
import { seededRandom as rng } from '../seeded-random';

const HOSTILE_STRINGS = [
  '', '.', '..', '/', '/etc/passwd', '../'.repeat(60) + 'etc/passwd', 'a/'.repeat(3000) + 'f', 'x'.repeat(200_000),
  'a\0b', '~', '~/.ssh/id_rsa', 'C:\\Windows\\system.ini', '%2e%2e/%2e%2e/', '\u202egnp.exe', '😀/💥.txt', '*', '**/**/**/*',
  '[', '(', '{', '{a,{b,c', '\\', '$(id)', '`id`', '-rf', '--help', 'outlink/secret.txt', 'outlink', 'dangling', '@../x',
  'ws/../../outside/secret.txt', '.git/config', 'node_modules', ' ', '\n', '\r\n', '🙂'.repeat(5000), '((((((((((a))))))))))', 'a'.repeat(4097),
];
const HOSTILE_VALUES: unknown[] = [
  null, undefined, 0, -1, 1.5, NaN, Infinity, -Infinity, 1e308, 2 ** 53, true, false, [], [1, 2], {}, { path: 'x' },
  JSON.parse('{"__proto__": {"polluted": true}}'), 'string',
];

function randomString(r: () => number): string {
  const pick = r();
  if (pick < 0.4) return HOSTILE_STRINGS[Math.floor(r() * HOSTILE_STRINGS.length)];
  const len = Math.floor(r() * (r() < 0.1 ? 5000 : 40));
  let s = '';
  for (let i = 0; i < len; i++) {
    const c = r();
    s += c < 0.6 ? String.fromCharCode(97 + Math.floor(r() * 26)) : c < 0.8 ? '/.-_*?[]{}()\\'[Math.floor(r() * 13)] : String.fromCharCode(Math.floor(r() * 0x3000));
  }
  return s;
}

const NUMERIC_KEYS = new Set(['offset', 'limit', 'timeout', 'context']);
const BOOLEAN_KEYS = new Set(['ignoreCase', 'literal']);

function randomNumber(r: () => number): number {
  const p = r();
  if (p < 0.6) return 1 + Math.floor(r() * 50);
  if (p < 0.8) return Math.floor(r() * 10 ** Math.floor(r() * 12));
  return [0, -1, 0.5, 1e9, 2 ** 31, Number.MAX_SAFE_INTEGER][Math.floor(r() * 6)];
}

/** Mostly well-typed values (so calls reach the tools), sometimes anything at all. */
function randomValue(r: () => number, key: string, tool: string, wild: boolean): unknown {
  if (r() < (wild ? 0.5 : 0.02)) return r() < 0.8 ? HOSTILE_VALUES[Math.floor(r() * HOSTILE_VALUES.length)] : { nested: { deeper: [randomString(r)] } };
  if (NUMERIC_KEYS.has(key)) return tool === 'bash' ? r() * 3 : randomNumber(r);
  if (BOOLEAN_KEYS.has(key)) return r() < 0.5;
  // Never hand the shell random text: bash only gets harmless commands (plus the odd values above).
  if (tool === 'bash' && key === 'command') {
    const n = Math.floor(r() * 1e6);
    return [`printf '%s' ${n}`, `exit ${n % 4}`, `seq 1 ${n % 5000}`, 'sleep 3', `echo ${n} >&2`][Math.floor(r() * 5)];
  }
  return randomString(r);
}

const KEYS: Record<string, string[]> = {
  read: ['path', 'offset', 'limit'],
  write: ['path', 'content'],
  edit: ['path', 'oldText', 'newText'],
  bash: ['command', 'timeout'],
  ls: ['path', 'limit'],
  find: ['pattern', 'path', 'limit'],
  grep: ['pattern', 'path', 'glob', 'ignoreCase', 'literal', 'context', 'limit'],
};

function assertToolOutput(out: ToolOutput, label: string): void {
  assert.ok(out && typeof out === 'object', label);
  assert.equal(typeof out.isError, 'boolean', label);
  assert.ok(Array.isArray(out.content) && out.content.length > 0, label);
  for (const block of out.content) {
    assert.ok(block.type === 'text' || block.type === 'image', label);
    if (block.type === 'text') {
      assert.equal(typeof block.text, 'string', label);
      assert.ok(Buffer.byteLength(block.text) < 400 * 1024, `${label}: ${Buffer.byteLength(block.text)} bytes`);
    }
  }
}

test('fuzz: every tool survives random and hostile arguments', { timeout: 60_000 }, async () => {
  const { ws, outside, workspace } = await makeSandbox({ 'a.txt': 'hello\nworld\n', 'src/x.ts': 'const x = 1;\n' });
  await symlink(outside, join(ws, 'outlink'));
  await symlink(join(outside, 'nothing-here'), join(ws, 'dangling'));
  const seed = Number(process.env.ARBOR_FUZZ_SEED ?? 20240611);
  const r = rng(seed);
  const limits = { bashDefaultTimeoutSec: 0.3, bashMaxTimeoutSec: 0.3 };
  const executed: Record<string, number> = {};
  for (const engine of [false, undefined] as const) {
    for (const tool of createTools({ ripgrep: engine })) {
      for (let i = 0; i < 45; i++) {
        let args: unknown;
        const shape = r();
        if (shape < 0.1) args = HOSTILE_VALUES[Math.floor(r() * HOSTILE_VALUES.length)];
        else {
          const obj: Record<string, unknown> = {};
          const wild = r() < 0.3;
          for (const key of KEYS[tool.name]) if (r() < 0.85) obj[key] = randomValue(r, key, tool.name, wild);
          if (r() < 0.1) obj[randomString(r).slice(0, 20) || 'extra'] = randomValue(r, 'extra', tool.name, wild);
          args = obj;
        }
        const label = `seed ${seed} ${tool.name} #${i} ${JSON.stringify(args)?.slice(0, 200)}`;
        const out = await runTool(tool, args, ctxFor(workspace, { limits }));
        assertToolOutput(out, label);
        const text = out.content[0].type === 'text' ? out.content[0].text : '';
        if (!text.startsWith('Invalid arguments')) executed[tool.name] = (executed[tool.name] ?? 0) + 1;
      }
    }
  }
  // The fuzz is only useful if plenty of calls get past validation into the tools themselves.
  for (const name of Object.keys(KEYS)) assert.ok((executed[name] ?? 0) >= 25, `${name} executed ${executed[name] ?? 0} times`);
  assert.deepEqual(await readdir(outside), ['secret.txt']);
  assert.equal(await readFile(join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
