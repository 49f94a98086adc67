// A small glob matcher (`*`, `**`, `?`, `[...]`, `{a,b}`) and the basics of .gitignore, shared by
// `find` and `grep`'s pure-Node fallbacks so they behave like ripgrep without a dependency.
import { ToolError } from './types';

const MAX_PATTERN_LENGTH = 1000;

function escapeRegExp(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/** Converts a glob to the source of an anchored regular expression over `/`-separated paths. */
export function globToRegExpSource(glob: string): string {
  if (glob.length > MAX_PATTERN_LENGTH) throw new ToolError(`The glob pattern is too long (at most ${MAX_PATTERN_LENGTH} characters).`);
  let out = '';
  let braceDepth = 0;
  let i = 0;
  while (i < glob.length) {
    const ch = glob[i];
    if (ch === '*') {
      let stars = 1;
      while (glob[i + stars] === '*') stars++;
      const atSegmentStart = i === 0 || glob[i - 1] === '/';
      const next = glob[i + stars];
      if (stars >= 2 && atSegmentStart && next === '/') {
        out += '(?:.*/)?';
        i += stars + 1;
        continue;
      }
      if (stars >= 2 && atSegmentStart && next === undefined) {
        out += '.*';
        i += stars;
        continue;
      }
      out += stars >= 2 ? '.*' : '[^/]*';
      i += stars;
      continue;
    }
    if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
      } else {
        let body = glob.slice(i + 1, close);
        let negate = false;
        if (body.startsWith('!') || body.startsWith('^')) {
          negate = true;
          body = body.slice(1);
        }
        body = body.replace(/\\/g, '\\\\').replace(/\[/g, '\\[');
        out += negate ? `[^/${body}]` : `[${body}]`;
        i = close + 1;
        continue;
      }
    } else if (ch === '{') {
      braceDepth++;
      out += '(?:';
    } else if (ch === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (ch === ',' && braceDepth > 0) {
      out += '|';
    } else if (ch === '\\' && i + 1 < glob.length) {
      out += escapeRegExp(glob[i + 1]);
      i += 2;
      continue;
    } else {
      out += escapeRegExp(ch);
    }
    i++;
  }
  if (braceDepth > 0) throw new ToolError(`The glob pattern "${glob}" has an unclosed "{".`);
  return out;
}

export interface GlobMatcher {
  (relativePath: string): boolean;
}

/**
 * A pattern without `/` matches the file name at any depth; with `/` it matches the whole path
 * relative to the search folder (a leading `/` or `./` anchors it there explicitly).
 */
export function compileGlob(pattern: string): GlobMatcher {
  let p = pattern.trim().replace(/\\/g, '/');
  if (p.startsWith('./')) p = p.slice(2);
  if (p.startsWith('/')) p = p.slice(1);
  if (p.endsWith('/')) p = `${p}**`;
  let regex: RegExp;
  try {
    regex = new RegExp(`^${globToRegExpSource(p)}$`);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Invalid glob pattern "${pattern}": ${(error as Error).message}`);
  }
  if (!p.includes('/')) return (rel) => regex.test(rel.slice(rel.lastIndexOf('/') + 1));
  return (rel) => regex.test(rel);
}

interface IgnoreRule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
  /** matches the path relative to the .gitignore's folder, rather than the name at any depth */
  anchored: boolean;
}

/** Parsed rules of one .gitignore file. */
export class IgnoreFile {
  readonly rules: IgnoreRule[] = [];

  constructor(
    /** path of the folder holding the .gitignore, relative to the walk root ('' for the root) */
    readonly base: string,
    text: string,
  ) {
    for (const rawLine of text.split(/\r?\n/)) {
      let line = rawLine.replace(/(?<!\\)\s+$/, '');
      if (line === '' || line.startsWith('#')) continue;
      let negate = false;
      if (line.startsWith('!')) {
        negate = true;
        line = line.slice(1);
      } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
      let dirOnly = false;
      if (line.endsWith('/')) {
        dirOnly = true;
        line = line.replace(/\/+$/, '');
      }
      if (line === '') continue;
      const anchored = line.includes('/');
      if (line.startsWith('/')) line = line.slice(1);
      try {
        this.rules.push({ regex: new RegExp(`^${globToRegExpSource(line)}$`), negate, dirOnly, anchored });
      } catch {
        // A line we cannot parse is ignored, as git does with invalid patterns.
      }
    }
  }

  /** undefined: no rule matched; true: ignored; false: re-included by a negation. */
  test(relFromRoot: string, isDir: boolean): boolean | undefined {
    const rel = this.base === '' ? relFromRoot : relFromRoot.slice(this.base.length + 1);
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    let result: boolean | undefined;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(rule.anchored ? rel : name)) result = !rule.negate;
    }
    return result;
  }
}

/** Every .gitignore from the root down to the current folder, applied in order (deepest wins). */
export function isIgnored(stack: readonly IgnoreFile[], relFromRoot: string, isDir: boolean): boolean {
  let ignored = false;
  for (const file of stack) {
    if (file.base !== '' && !relFromRoot.startsWith(`${file.base}/`)) continue;
    const verdict = file.test(relFromRoot, isDir);
    if (verdict !== undefined) ignored = verdict;
  }
  return ignored;
}
