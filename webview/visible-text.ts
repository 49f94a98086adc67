// Makes every character of a command or file line visible on the approval card (docs/reliability.md,
// "the card shows exactly what will run"): control characters (C0, DEL, C1), bidi controls, zero-width
// and other invisible characters, unusual spaces and lone surrogates become distinct badges; a long run
// of spaces (padding that pushes the rest of a command out of view) becomes one "⟨300 spaces⟩" badge;
// newlines stay newlines.
import { t } from './l10n';

export type VisiblePiece =
  | { kind: 'text'; text: string }
  | { kind: 'badge'; text: string; title: string }
  | { kind: 'spaces'; text: string; title: string; raw: string };

/** Runs of at least this many plain spaces become one badge; shorter ones (indentation) stay as they are. */
export const SPACE_RUN = 16;

const BIDI_NAMES: Readonly<Record<number, string>> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
};

/** Invisible or look-alike code points that are not controls: zero-width, fillers, selectors, tags, odd spaces. */
const INVISIBLE: ReadonlyArray<readonly [number, number]> = [
  [0x00a0, 0x00a0], [0x00ad, 0x00ad], [0x034f, 0x034f], [0x115f, 0x1160], [0x1680, 0x1680], [0x17b4, 0x17b5],
  [0x180e, 0x180e], [0x2000, 0x200d], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x2065], [0x3000, 0x3000],
  [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff9, 0xfffb], [0xe0000, 0xe007f], [0xe0100, 0xe01ef],
];

function hex(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

function isInvisible(cp: number): boolean {
  return INVISIBLE.some(([from, to]) => cp >= from && cp <= to);
}

/** The badge for one code point, or undefined when it shows as itself. */
export function badgeFor(cp: number): { text: string; title: string } | undefined {
  if (cp === 0x0a) return undefined;
  if (cp === 0x09) return { text: '⇥', title: t('tab (U+0009)') };
  if (cp < 0x20) return { text: String.fromCodePoint(0x2400 + cp), title: t('control character {0}', hex(cp)) };
  if (cp === 0x7f) return { text: '␡', title: t('control character DEL (U+007F)') };
  if (cp >= 0x80 && cp <= 0x9f) return { text: `⟨${hex(cp)}⟩`, title: t('C1 control character {0}', hex(cp)) };
  const bidi = BIDI_NAMES[cp];
  if (bidi) return { text: `⟨${hex(cp)}⟩`, title: t('bidirectional control: {0} (reorders the text around it)', bidi) };
  if (cp >= 0xd800 && cp <= 0xdfff) return { text: `⟨${hex(cp)}⟩`, title: t('lone surrogate {0}', hex(cp)) };
  if (isInvisible(cp)) return { text: `⟨${hex(cp)}⟩`, title: t('invisible or unusual space character {0}', hex(cp)) };
  return undefined;
}

function pushText(pieces: VisiblePiece[], text: string): void {
  const last = pieces[pieces.length - 1];
  if (last?.kind === 'text') last.text += text;
  else pieces.push({ kind: 'text', text });
}

/** Splits plain text into text and marked space runs. */
function pushPlain(pieces: VisiblePiece[], text: string): void {
  const pattern = new RegExp(` {${SPACE_RUN},}`, 'g');
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) pushText(pieces, text.slice(at, match.index));
    const count = match[0].length;
    pieces.push({ kind: 'spaces', text: t('⟨{0} spaces⟩', count), title: t('{0} spaces in a row', count), raw: match[0] });
    at = match.index + match[0].length;
  }
  if (at < text.length) pushText(pieces, text.slice(at));
}

/** The pieces of `text`, in order; joining their `text` gives `text` with every hidden character and long space run badged. */
export function visiblePieces(text: string): VisiblePiece[] {
  const pieces: VisiblePiece[] = [];
  let plain = '';
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    const badge = badgeFor(cp);
    if (badge) {
      pushPlain(pieces, plain);
      plain = '';
      pieces.push({ kind: 'badge', ...badge });
    } else plain += text.slice(i, i + size);
    i += size;
  }
  pushPlain(pieces, plain);
  return pieces;
}

/** `text` with every hidden character replaced by its badge text (for one-line summaries and titles). */
export function visibleString(text: string): string {
  return visiblePieces(text).map((p) => p.text).join('');
}

/** Number of lines (1 for text without a newline). */
export function lineCount(text: string): number {
  let count = 1;
  for (const ch of text) if (ch === '\n') count++;
  return count;
}
