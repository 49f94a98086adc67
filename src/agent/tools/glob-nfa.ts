// A glob compiled to a small NFA and matched by walking the set of live states, one path character at a
// time: O(pattern × path) whatever the pattern. The regular-expression translation it replaces
// backtracked: `**a**a**a…c` against a long path, from the model or from a repository's .gitignore,
// froze the extension host for minutes (docs/reliability.md, "hostile repository").
import { ToolError } from './types';

export const MAX_GLOB_LENGTH = 1000;

type Item =
  | { kind: 'char'; test: (ch: string) => boolean }
  /** `*`: any run of characters other than `/`; `**` inside a segment: any run at all */
  | { kind: 'repeat'; test: (ch: string) => boolean }
  /** `**\/` at a segment start: nothing, or any run of characters ending with `/` */
  | { kind: 'dirs' }
  | { kind: 'alt'; options: Item[][] };

const anyChar = () => true;
const notSlash = (ch: string) => ch !== '/';

interface Parser {
  glob: string;
  at: number;
}

function parseClass(p: Parser): Item | undefined {
  const close = p.glob.indexOf(']', p.at + 2);
  if (close < 0) return undefined;
  let body = p.glob.slice(p.at + 1, close);
  const negate = body.startsWith('!') || body.startsWith('^');
  if (negate) body = body.slice(1);
  const ranges: [string, string][] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === '-' && i + 2 < body.length) {
      ranges.push([body[i], body[i + 2]]);
      i += 2;
    } else ranges.push([body[i], body[i]]);
  }
  p.at = close + 1;
  const inSet = (ch: string) => ranges.some(([lo, hi]) => ch >= lo && ch <= hi);
  return { kind: 'char', test: negate ? (ch) => ch !== '/' && !inSet(ch) : inSet };
}

function parseStars(p: Parser, items: Item[]): void {
  let stars = 1;
  while (p.glob[p.at + stars] === '*') stars++;
  const atSegmentStart = p.at === 0 || p.glob[p.at - 1] === '/';
  const next = p.glob[p.at + stars];
  p.at += stars;
  if (stars >= 2 && atSegmentStart && next === '/') {
    p.at++;
    items.push({ kind: 'dirs' });
  } else items.push({ kind: 'repeat', test: stars >= 2 ? anyChar : notSlash });
}

function literal(ch: string): Item {
  return { kind: 'char', test: (c) => c === ch };
}

/** Parses until the end, or (inside braces) until the `,` or `}` that ends this option. */
function parseSequence(p: Parser, depth: number): Item[] {
  const items: Item[] = [];
  while (p.at < p.glob.length) {
    const ch = p.glob[p.at];
    if (depth > 0 && (ch === ',' || ch === '}')) return items;
    if (ch === '*') parseStars(p, items);
    else if (ch === '?') {
      items.push({ kind: 'char', test: notSlash });
      p.at++;
    } else if (ch === '[') items.push(parseClass(p) ?? (p.at++, literal('[')));
    else if (ch === '{') items.push(parseBraces(p, depth));
    else if (ch === '\\' && p.at + 1 < p.glob.length) {
      items.push(literal(p.glob[p.at + 1]));
      p.at += 2;
    } else {
      items.push(literal(ch));
      p.at++;
    }
  }
  if (depth > 0) throw new ToolError(`The glob pattern "${p.glob}" has an unclosed "{".`);
  return items;
}

function parseBraces(p: Parser, depth: number): Item {
  const options: Item[][] = [];
  p.at++;
  for (;;) {
    options.push(parseSequence(p, depth + 1));
    const ch = p.glob[p.at++];
    if (ch === '}') return { kind: 'alt', options };
  }
}

/** A state consumes one character (`test`) and goes to `next`, or forks without consuming (`fork`). */
interface State {
  test?: (ch: string) => boolean;
  next: number;
  fork: number[];
}

class Automaton {
  readonly states: State[] = [{ next: -1, fork: [] }]; // state 0 accepts
  start = 0;

  add(state: State): number {
    this.states.push(state);
    return this.states.length - 1;
  }

  /** Builds `items` in front of state `next`; returns the entry state. */
  sequence(items: readonly Item[], next: number): number {
    for (let i = items.length - 1; i >= 0; i--) next = this.item(items[i], next);
    return next;
  }

  private item(item: Item, next: number): number {
    if (item.kind === 'char') return this.add({ test: item.test, next, fork: [] });
    if (item.kind === 'alt') return this.add({ next: -1, fork: item.options.map((o) => this.sequence(o, next)) });
    if (item.kind === 'repeat') return this.loop(item.test, next);
    const slash = this.add({ test: (ch) => ch === '/', next, fork: [] });
    return this.add({ next: -1, fork: [next, this.loop(anyChar, slash)] });
  }

  private loop(test: (ch: string) => boolean, next: number): number {
    const entry = this.add({ next: -1, fork: [] });
    const step = this.add({ test, next: entry, fork: [] });
    this.states[entry].fork = [step, next];
    return entry;
  }
}

/** Adds `state` and every state reachable from it without consuming a character. */
function close(states: readonly State[], from: number, seen: Uint32Array, mark: number, out: number[]): void {
  const stack = [from];
  while (stack.length > 0) {
    const s = stack.pop() as number;
    if (seen[s] === mark) continue;
    seen[s] = mark;
    const state = states[s];
    if (state.test || s === 0) out.push(s);
    for (const f of state.fork) stack.push(f);
  }
}

/** Compiles a glob (already normalised to `/` separators) to an anchored, linear-time matcher. */
export function compileGlobNfa(glob: string): (text: string) => boolean {
  if (glob.length > MAX_GLOB_LENGTH) throw new ToolError(`The glob pattern is too long (at most ${MAX_GLOB_LENGTH} characters).`);
  const automaton = new Automaton();
  automaton.start = automaton.sequence(parseSequence({ glob, at: 0 }, 0), 0);
  const { states, start } = automaton;
  return (text) => {
    const seen = new Uint32Array(states.length);
    let mark = 1;
    let live: number[] = [];
    close(states, start, seen, mark, live);
    for (let i = 0; i < text.length; i++) {
      if (live.length === 0) return false;
      const ch = text[i];
      const next: number[] = [];
      mark++;
      for (const s of live) {
        const state = states[s];
        if (state.test?.(ch)) close(states, state.next, seen, mark, next);
      }
      live = next;
    }
    return live.includes(0);
  };
}
