// Opens the sessions pi's own SessionManager wrote (test/fixtures/pi-1.5 by pi 1.5.2, test/fixtures/pi-1.6
// by pi 1.6.0 with the shapes 1.6 added; made by scripts/make-pi-fixtures.mjs) and compares Arbor's context
// for every leaf with the one pi computed.
// Normalisation: none beyond JSON round-trip (pi's file and contexts are plain JSON); a field Arbor adds
// or drops would have to be listed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SessionStore } from '../../../src/session/store';

const series = ['pi-1.5', 'pi-1.6'];

function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

for (const folder of series) {
  const dir = join(__dirname, '..', '..', 'fixtures', folder);
  const names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

  test(`there are ${folder} fixtures`, () => {
    assert.ok(names.length >= 2, names.join(', '));
  });

  for (const name of names) {
    test(`${folder} fixture ${name}: Arbor's context for every leaf equals pi's`, async () => {
      const expected = JSON.parse(readFileSync(join(dir, name.replace(/\.jsonl$/, '.contexts.json')), 'utf8')) as {
        contexts: Record<string, unknown>;
      };
      const store = await SessionStore.open(join(dir, name));
      assert.deepEqual(store.loadReport, [], `${folder} files load without problems`);
      const leaves = Object.keys(expected.contexts);
      assert.ok(leaves.length >= 1);
      for (const leaf of leaves) {
        assert.deepEqual(asJson(store.buildContext(leaf)), expected.contexts[leaf], `leaf ${leaf}`);
      }
    });
  }
}
