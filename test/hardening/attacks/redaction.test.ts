// Issue #14 item 7: an echoed key is redacted even when only part of it, or an encoded form of it,
// comes back in a provider's error text (which ends up in the chat, a log or a session file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets } from '../../../src/llm/errors';
import { reportFigures } from '../profile';

// No well-known prefix: the generic "sk-" pattern must not be what saves us.
const KEY = 'zq7Xk2Vb9Lm4Np8Rt1Ws6Yd3Hf5Jg0Ac+/=Qe&Uo?i';

function leaks(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 12 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 12))) found.push(KEY.slice(i, i + 12));
  return found;
}

test('any 12-character run of the key is redacted', () => {
  for (let start = 0; start + 12 <= KEY.length; start++) {
    for (const length of [12, 13, 20, KEY.length - start]) {
      if (start + length > KEY.length) continue;
      const part = KEY.slice(start, start + length);
      const out = redactSecrets(`invalid key: "${part}" (check your settings)`, [KEY]);
      assert.deepEqual(leaks(out), [], `run ${start}+${length} survived: ${out}`);
      assert.match(out, /\[REDACTED\]/);
      assert.match(out, /check your settings/, 'the rest of the text stays');
    }
  }
});

test('the key URL-encoded is redacted', () => {
  const encoded = encodeURIComponent(KEY);
  assert.notEqual(encoded, KEY, 'the test key has characters that URL-encoding changes');
  const out = redactSecrets(`GET /v1?key=${encoded}&x=1 failed`, [KEY]);
  assert.ok(!out.includes(encoded.slice(10, 30)), out);
  assert.match(out, /&x=1 failed/);
});

/** `text` without the separators an echo may put between the key's characters, in lower case (ASCII). */
function squeezed(text: string): string {
  return text.replace(/[\s\u00a0\u200b-\u200d\u2060\ufeff]/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Issue #24 item 5: the key echoed with its characters spaced out, or in another case, is found too. */
test('the key echoed with spaces between its characters, or upper- or lower-cased, is redacted', () => {
  const spaced = [...KEY].join(' ');
  const variants: Record<string, string> = {
    spaced,
    'spaced, part': [...KEY.slice(5, 25)].join(' '),
    'two spaces and tabs': [...KEY].join(' \t'),
    'one per line': [...KEY].join('\n'),
    'no-break and zero-width spaces': [...KEY].map((c, i) => c + (i % 2 ? '\u00a0' : '\u200b')).join(''),
    upper: KEY.toUpperCase(),
    lower: KEY.toLowerCase(),
    'upper, spaced': [...KEY.toUpperCase()].join(' '),
    'upper, part': KEY.toUpperCase().slice(3, 19),
  };
  const lowered = squeezed(KEY);
  for (const [name, echo] of Object.entries(variants)) {
    const out = redactSecrets(`the provider said: key ${echo} is invalid (check your settings)`, [KEY]);
    const rest = squeezed(out);
    for (let i = 0; i + 12 <= lowered.length; i++) assert.ok(!rest.includes(lowered.slice(i, i + 12)), `${name}: ${lowered.slice(i, i + 12)} survived in ${out}`);
    assert.match(out, /\[REDACTED\]/, name);
    assert.match(out, /^the provider said: key /, `${name}: the text before stays`);
    assert.match(out, / is invalid \(check your settings\)$/, `${name}: the text after stays`);
  }
  const plain = 'Request failed: the model is overloaded, please try again in a moment. Quota: 1 2 3 4 5 6 7 8 9 0 1 2 3';
  assert.equal(redactSecrets(plain, [KEY]), plain, 'ordinary spaced text is left alone');
});

/** Runs of 16 base64 characters of `encoded` that depend only on the key's bytes (bytes p..p+K-1). */
function keyWindows(encoded: string, p: number): string[] {
  const pure = (j: number) => Math.floor((6 * j) / 8) >= p && Math.floor((6 * j + 5) / 8) < p + KEY.length;
  const out: string[] = [];
  for (let j = 0; j + 16 <= encoded.length; j++) if (pure(j) && pure(j + 15)) out.push(encoded.slice(j, j + 16));
  return out;
}

test('base64 of the key, whole or in part, at any alignment, is redacted', () => {
  let windows = 0;
  for (const prefix of ['', 'a', 'ab', 'Basic user:', 'x'.repeat(7)]) {
    const whole = Buffer.from(prefix + KEY + '!tail').toString('base64');
    const out = redactSecrets(`auth header was ${whole} - rejected`, [KEY]);
    for (const window of keyWindows(whole, prefix.length)) {
      assert.ok(!out.includes(window), `prefix ${JSON.stringify(prefix)}: ${window} survived in ${out}`);
      windows++;
    }
    assert.match(out, / - rejected$/);
  }
  const middle = Buffer.from(KEY).toString('base64').slice(4, 24);
  assert.ok(!redactSecrets(`token ${middle} seen`, [KEY]).includes(middle), 'a 20-character slice of the base64 key');
  assert.equal(redactSecrets('an ordinary error with no key in it', [KEY]), 'an ordinary error with no key in it');
  reportFigures('attacks-redaction', { keyLength: KEY.length, base64WindowsChecked: windows });
});
