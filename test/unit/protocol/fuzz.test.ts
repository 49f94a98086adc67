// Protocol fuzzing: 2,000+ random and mutated messages per direction. The oracle: parsing never throws;
// a mutation that is known to break a valid message (unknown key, wrong JS type, unsafe number, oversize
// string, missing `type`) is always refused; random garbage is refused unless it is a genuinely valid
// message, in which case the parsed value equals the input (the schemas never transform data).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64Length, IMAGE_LIMITS, LIMITS, parseHostMessage, parseWebviewMessage, webviewToHostSchema, hostToWebviewSchema } from '../../../src/protocol';
import { validHostMessages, validWebviewMessages } from './fixtures';
import { seededRandom as rng } from '../seeded-random';

const IMAGE_DATA_MAX = base64Length(IMAGE_LIMITS.maxBytes);

type Path = (string | number)[];
/** Keys whose values are opaque (tool arguments): any value there is valid, so they are not mutated. */
const OPAQUE = new Set(['args', 'arguments']);

function paths(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push([...at, i], ...paths(v, [...at, i])));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push([...at, k]);
      if (!OPAQUE.has(k)) out.push(...paths(v, [...at, k]));
    }
  return out;
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}
function setAt(value: unknown, path: Path, next: unknown): void {
  const parent = getAt(value, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = next;
}

/**
 * A replacement whose JS type no schema position accepts in place of `current` (never null: several
 * strings and numbers are nullable).
 */
function wrongType(current: unknown, pick: () => number): unknown {
  if (typeof current === 'string') return [42, true, {}, []][Math.floor(pick() * 4)];
  if (typeof current === 'number') return ['1', true, {}, Number.NaN, Number.POSITIVE_INFINITY, -1e12][Math.floor(pick() * 6)];
  if (typeof current === 'boolean') return ['true', 1, null, {}][Math.floor(pick() * 4)];
  if (current === null) return [{}, [], true][Math.floor(pick() * 3)];
  if (Array.isArray(current)) return [5, 'list', {}, null][Math.floor(pick() * 4)];
  return [5, 'obj', [], true][Math.floor(pick() * 4)];
}

function randomValue(pick: () => number, depth: number, types: string[]): unknown {
  const r = pick();
  if (depth > 3 || r < 0.25) return [null, true, false, 0, -1, 1.5, Number.NaN, '', 'x', 'a'.repeat(300)][Math.floor(pick() * 10)];
  if (r < 0.45) return Array.from({ length: Math.floor(pick() * 4) }, () => randomValue(pick, depth + 1, types));
  const obj: Record<string, unknown> = {};
  const keys = ['type', 'text', 'toolCallId', 'targetId', 'mode', 'index', 'level', 'state', 'event', 'items', 'label', 'entryId', 'kind', '__proto__x'];
  for (let i = Math.floor(pick() * 5); i > 0; i--) obj[keys[Math.floor(pick() * keys.length)]!] = randomValue(pick, depth + 1, types);
  if (pick() < 0.8) obj.type = types[Math.floor(pick() * types.length)];
  return obj;
}

type Parse = (raw: unknown) => { ok: true; message: unknown } | { ok: false; reason: string };

function fuzzDirection(name: string, samples: unknown[], parse: Parse, types: string[], seed: number): void {
  test(`${name}: 2,000 mutated and 2,000 random messages never validate wrongly and never throw`, () => {
    const pick = rng(seed);
    let mutatedRefused = 0;
    for (let i = 0; i < 2000; i++) {
      const base = structuredClone(samples[Math.floor(pick() * samples.length)]);
      const all = paths(base);
      const mode = Math.floor(pick() * 5);
      let what = '';
      if (mode === 0) {
        // an unknown key on the message or on any nested object (not inside opaque tool arguments)
        const objects = [[] as Path, ...all].filter((p) => {
          const v = getAt(base, p);
          return v !== null && typeof v === 'object' && !Array.isArray(v) && !OPAQUE.has(String(p[p.length - 1]));
        });
        const target = objects[Math.floor(pick() * objects.length)]!;
        (getAt(base, target) as Record<string, unknown>)['zzUnknown' + i] = 1;
        what = `unknown key at ${target.join('.')}`;
      } else if (mode === 1 && all.length > 0) {
        const target = all[Math.floor(pick() * all.length)]!;
        setAt(base, target, wrongType(getAt(base, target), pick));
        what = `wrong type at ${target.join('.')}`;
      } else if (mode === 2) {
        delete (base as Record<string, unknown>).type;
        what = 'no type';
      } else if (mode === 3) {
        (base as Record<string, unknown>).type = `x${Math.floor(pick() * 1e6)}`;
        what = 'unknown type';
      } else {
        const strings = all.filter((p) => typeof getAt(base, p) === 'string');
        if (strings.length === 0) {
          (base as Record<string, unknown>).type = 42;
          what = 'numeric type';
        } else {
          const target = strings[Math.floor(pick() * strings.length)]!;
          // longer than the string may be: an image's base64 data is the longest one a message holds
          setAt(base, target, 'x'.repeat((target.at(-1) === 'data' ? IMAGE_DATA_MAX : LIMITS.content) + 1));
          what = `oversize string at ${target.join('.')}`;
        }
      }
      let result;
      assert.doesNotThrow(() => (result = parse(base)), what);
      assert.equal(result!.ok, false, `${what} must be refused: ${JSON.stringify(base).slice(0, 300)}`);
      mutatedRefused++;
    }
    assert.equal(mutatedRefused, 2000);

    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      const raw = randomValue(pick, 0, [...types, 'bogus']);
      let result: ReturnType<Parse> | undefined;
      assert.doesNotThrow(() => (result = parse(raw)));
      if (result!.ok) {
        accepted++;
        assert.deepEqual(result!.message, raw, 'accepted garbage is returned unchanged');
        assert.ok(types.includes((raw as { type: string }).type));
      }
    }
    // Random objects only rarely form a valid message (e.g. `{type:'stop'}`); most must be refused.
    assert.ok(accepted < 400, `accepted ${accepted} of 2000 random values`);
  });
}

fuzzDirection('webview -> host', validWebviewMessages, parseWebviewMessage, webviewToHostSchema.options.map((o) => o.shape.type.value), 1);
fuzzDirection('host -> webview', validHostMessages, parseHostMessage, hostToWebviewSchema.options.map((o) => o.shape.type.value), 2);

test('hostile values (cyclic objects, getters that throw, huge arrays) never throw out of the parser', () => {
  const cyclic: Record<string, unknown> = { type: 'prompt' };
  cyclic.text = cyclic;
  const throwing = { type: 'prompt', get text(): string { throw new Error('gotcha'); } };
  const huge = { type: 'agentEvent', event: { type: 'queued', messages: new Array(1_000_000).fill('x') } };
  for (const raw of [cyclic, throwing, huge, Object.create(null), new Map(), () => 1, Symbol('x'), 10n]) {
    assert.doesNotThrow(() => parseWebviewMessage(raw));
    assert.doesNotThrow(() => parseHostMessage(raw));
    assert.equal(parseWebviewMessage(raw).ok, false);
  }
});
