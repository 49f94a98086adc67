// A compact unified diff of two texts, for the approval card of `write`/`edit` (docs/reliability.md:
// the card shows exactly what will change). Lines are compared with Myers' O((N+M)·D) algorithm after
// the common head and tail are cut off; the number of edits it searches is bounded so that a huge or
// totally different file costs at most a few tens of millions of steps and then shows as one block
// replaced. The shown diff is capped; the caller says how many lines were left out.

export type DiffLineKind = ' ' | '-' | '+' | '@';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

export interface CompactDiff {
  lines: DiffLine[];
  /** diff lines not shown because of `maxLines` */
  omittedLines: number;
  added: number;
  removed: number;
}

export interface CompactDiffOptions {
  /** unchanged lines kept around each change (default 3) */
  context?: number;
  /** most diff lines returned, hunk headers included (default 150) */
  maxLines?: number;
  /** longest line shown; longer lines end in "… (N more characters)" (default 2000) */
  maxLineChars?: number;
}

type Edit = { kind: ' ' | '-' | '+'; text: string; oldLine: number; newLine: number };

/** Splits into lines; a CRLF ending counts as a plain line end (the diff editor shows the exact bytes). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const STEP_BUDGET = 20_000_000;

/** Myers' greedy shortest edit script between a and b; undefined when it needs more than maxD edits. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Array<' ' | '-' | '+'> | undefined {
  const n = a.length;
  const m = b.length;
  const offset = maxD + 1;
  let v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= maxD; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
      let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) (x++, y++);
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, n, m, d);
    }
    v = next;
  }
  return undefined;
}

function backtrack(trace: Int32Array[], offset: number, n: number, m: number, dEnd: number): Array<' ' | '-' | '+'> {
  const script: Array<' ' | '-' | '+'> = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) (script.push(' '), x--, y--);
    script.push(down ? '+' : '-');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) (script.push(' '), x--, y--);
  return script.reverse();
}

/** The edit script of the changed middle: Myers when affordable, else everything removed then added. */
function middleScript(a: readonly string[], b: readonly string[]): Array<' ' | '-' | '+'> {
  const maxD = Math.min(a.length + b.length, Math.floor(STEP_BUDGET / Math.max(1, a.length + b.length)), 2000);
  return myers(a, b, maxD) ?? [...a.map(() => '-' as const), ...b.map(() => '+' as const)];
}

/** Every line of both texts in order, each marked unchanged, removed or added, with its line numbers. */
export function lineEdits(original: string, proposed: string): Edit[] {
  const a = splitLines(original);
  const b = splitLines(proposed);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const script = [
    ...Array<' '>(head).fill(' '),
    ...middleScript(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...Array<' '>(tail).fill(' '),
  ];
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  for (const kind of script) {
    edits.push({ kind, text: kind === '+' ? b[j]! : a[i]!, oldLine: i + 1, newLine: j + 1 });
    if (kind !== '+') i++;
    if (kind !== '-') j++;
  }
  return edits;
}

/** Index ranges [start, end) of the edits shown: each change with `context` lines around, merged. */
function hunkRanges(edits: readonly Edit[], context: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  edits.forEach((edit, index) => {
    if (edit.kind === ' ') return;
    const start = Math.max(0, index - context);
    const end = Math.min(edits.length, index + context + 1);
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  });
  return ranges;
}

function hunkHeader(slice: readonly Edit[]): string {
  const oldCount = slice.filter((e) => e.kind !== '+').length;
  const newCount = slice.filter((e) => e.kind !== '-').length;
  const first = slice[0]!;
  const oldStart = oldCount === 0 ? first.oldLine - 1 : first.oldLine;
  const newStart = newCount === 0 ? first.newLine - 1 : first.newLine;
  return `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`;
}

function capLine(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** The unified diff of `original` → `proposed`, at most `maxLines` lines long. */
export function compactDiff(original: string, proposed: string, options: CompactDiffOptions = {}): CompactDiff {
  const { context = 3, maxLines = 150, maxLineChars = 2000 } = options;
  const edits = lineEdits(original, proposed);
  const all: DiffLine[] = [];
  for (const [start, end] of hunkRanges(edits, context)) {
    const slice = edits.slice(start, end);
    all.push({ kind: '@', text: hunkHeader(slice) });
    for (const edit of slice) all.push({ kind: edit.kind, text: capLine(edit.text, maxLineChars) });
  }
  return {
    lines: all.slice(0, maxLines),
    omittedLines: Math.max(0, all.length - maxLines),
    added: edits.filter((e) => e.kind === '+').length,
    removed: edits.filter((e) => e.kind === '-').length,
  };
}
