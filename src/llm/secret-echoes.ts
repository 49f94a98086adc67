// Finds where a secret is echoed back in a text, even in part or encoded (issue #14 item 7): a provider
// error may quote a truncated key, a URL-encoded one from a query string, or the base64 of a Basic
// header that contains it. Every run of at least MIN_RUN characters of the key or of one of its encoded
// forms counts as an echo. Base64 depends on where the key starts within a 3-byte group, so the key is
// encoded at all three alignments; only the characters that depend on key bytes alone are kept.
// All forms share one set of MIN_RUN-character pieces, so a text is scanned once (about 0.1-0.15 s per MiB).
// The scan ignores case (ASCII letters) and the blanks an echo may put between the key's characters
// (spaces, tabs, line breaks, no-break and zero-width spaces): a key spelled out "s k - 1 2 …" or shouted
// in upper case is the key too (issue #24); a masked stretch covers the blanks inside it.

/** A run this long of the key, or of an encoded form of it, is treated as the key. */
export const MIN_RUN = 12;

/** The base64 characters of `secret` placed `offset` bytes into a 3-byte group, key bytes only. */
function base64Core(secret: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), secret]).toString('base64');
  const pure = (j: number) => Math.floor((6 * j) / 8) >= offset && Math.floor((6 * j + 5) / 8) < offset + secret.length;
  let start = 0;
  while (start < encoded.length && !pure(start)) start++;
  let end = start;
  while (end < encoded.length && pure(end)) end++;
  return encoded.slice(start, end);
}

function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores = [0, 1, 2].map((offset) => base64Core(bytes, offset));
  return [...cores, ...cores.map((core) => core.replace(/\+/g, '-').replace(/\//g, '_'))];
}

function urlForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  return [encoded, lowerHex, encoded.replace(/%20/g, '+')];
}

/** Every form of `secret` worth looking for: itself, URL-encoded, base64 at each alignment. */
export function echoForms(secret: string): string[] {
  const forms = new Set([secret, ...urlForms(secret), ...base64Forms(secret)]);
  return [...forms].filter((form) => form.length >= MIN_RUN);
}

/** Every MIN_RUN-character piece of every form of every secret, squeezed like the text (squeeze()). */
function pieces(secrets: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const secret of secrets) {
    for (const form of echoForms(secret)) {
      const { text } = squeeze(form);
      for (let i = 0; i + MIN_RUN <= text.length; i++) out.add(text.slice(i, i + MIN_RUN));
    }
  }
  return out;
}

function isBlank(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff;
}

/** `text` without blanks and with ASCII letters lowered; `at[k]`: where its k-th character was in `text`. */
function squeeze(text: string): { text: string; at: Int32Array } {
  const codes = new Uint16Array(text.length);
  const at = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isBlank(code)) continue;
    codes[n] = code >= 65 && code <= 90 ? code + 32 : code;
    at[n++] = i;
  }
  let out = '';
  for (let k = 0; k < n; k += 8192) out += String.fromCharCode(...codes.subarray(k, Math.min(n, k + 8192)));
  return { text: out, at: at.subarray(0, n) };
}

/** `text` with each echoed stretch of any secret replaced by `mask` (overlapping stretches merged). */
export function maskEchoes(text: string, secrets: readonly string[], mask: string): string {
  if (secrets.length === 0 || text.length < MIN_RUN) return text;
  const known = pieces(secrets);
  const heads = new Set([...known].map((piece) => head(piece, 0)));
  const squeezed = squeeze(text);
  const covered = new Uint8Array(text.length);
  let found = false;
  for (let i = 0; i + MIN_RUN <= squeezed.text.length; i++) {
    if (heads.has(head(squeezed.text, i)) && known.has(squeezed.text.slice(i, i + MIN_RUN))) {
      covered.fill(1, squeezed.at[i]!, squeezed.at[i + MIN_RUN - 1]! + 1);
      found = true;
    }
  }
  return found ? applyMask(text, covered, mask) : text;
}

/** The three UTF-16 units at `i` as one number: a cheap filter before the exact piece lookup. */
function head(text: string, i: number): number {
  return text.charCodeAt(i) * 2 ** 32 + text.charCodeAt(i + 1) * 2 ** 16 + text.charCodeAt(i + 2);
}

function applyMask(text: string, covered: Uint8Array, mask: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += mask;
  }
  return out;
}
