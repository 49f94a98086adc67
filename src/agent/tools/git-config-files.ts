// The config files git reads for a repository besides `.git/config` itself: those it includes
// (`include.path`, `includeIf.<condition>.path`, nested). git obeys them like `.git/config` (a
// `core.fsmonitor` there runs at the next `git status`), so the write policy protects them wherever they
// lie (docs/reliability.md, threat model, "where git really looks"). Two sources, united: git's own answer
// (`git config --local --includes --show-origin`) and the include paths read as text (every condition
// counted as met), so a missing or refusing git still protects them. Never throws.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { realpathDeep } from './paths';

const GIT_TIMEOUT_MS = 5000;
const MAX_INCLUDE_DEPTH = 10;

/** Real paths of the config files `commonDir/config` includes (not the file itself). */
export async function includedConfigFiles(gitDir: string, commonDir: string): Promise<string[]> {
  const own = await realpathDeep(join(commonDir, 'config'));
  const found = new Set([...(await fromGit(gitDir)), ...(await fromText(join(commonDir, 'config'), 0))]);
  const real = await Promise.all([...found].map((path) => realpathDeep(path).catch(() => path)));
  return [...new Set(real)].filter((path) => path !== own);
}

/** The files git names as the origin of the repository's config values, includes followed. */
function fromGit(gitDir: string): Promise<string[]> {
  const args = ['--git-dir', gitDir, 'config', '--local', '--includes', '--show-origin', '--list', '-z'];
  return new Promise((done) => {
    execFile('git', args, { cwd: gitDir, timeout: GIT_TIMEOUT_MS, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (error, stdout) => {
      done(error ? [] : originsOf(String(stdout ?? ''), gitDir));
    });
  });
}

function originsOf(output: string, cwd: string): string[] {
  return output
    .split('\0')
    .filter((field) => field.startsWith('file:'))
    .map((field) => resolve(cwd, field.slice('file:'.length)));
}

/** The include paths of `file`, read as text, and theirs in turn. */
async function fromText(file: string, depth: number): Promise<string[]> {
  if (depth >= MAX_INCLUDE_DEPTH) return [];
  const text = await readFile(file, 'utf8').catch(() => '');
  const out: string[] = [];
  for (const value of includePaths(text)) {
    const path = expandPath(value, dirname(file));
    out.push(path, ...(await fromText(path, depth + 1)));
  }
  return out;
}

/** `path = …` values in `[include]` and `[includeIf "…"]` sections. */
function includePaths(text: string): string[] {
  const out: string[] = [];
  let inInclude = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*([^\]\s"]+)/.exec(line);
    if (section) inInclude = /^include(if)?$/i.test(section[1]!);
    const value = inInclude ? /^path\s*=\s*(.*)$/i.exec(line.replace(/^\[[^\]]*\]\s*/, '')) : null;
    if (value?.[1]) out.push(value[1].replace(/^"(.*)"$/, '$1').trim());
  }
  return out;
}

/** git's reading of an include path: `~/` is home, a relative path is relative to the including file. */
function expandPath(value: string, from: string): string {
  const expanded = value === '~' || value.startsWith('~/') ? join(homedir(), value.slice(1)) : value;
  return isAbsolute(expanded) ? expanded : resolve(from, expanded);
}
