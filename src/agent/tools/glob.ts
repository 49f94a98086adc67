// A small glob matcher (`*`, `**`, `?`, `[...]`, `{a,b}`) and the basics of .gitignore, shared by
// `find` and `grep`'s pure-Node fallbacks so they behave like ripgrep without a dependency. Matching is
// linear-time (glob-nfa.ts): patterns come from the model and from the repository's own .gitignore files.
import { compileGlobNfa } from './glob-nfa';

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
  const matches = compileGlobNfa(p);
  if (!p.includes('/')) return (rel) => matches(rel.slice(rel.lastIndexOf('/') + 1));
  return matches;
}

interface IgnoreRule {
  matches: (path: string) => boolean;
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
        this.rules.push({ matches: compileGlobNfa(line), negate, dirOnly, anchored });
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
      if (rule.matches(rule.anchored ? rel : name)) result = !rule.negate;
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
