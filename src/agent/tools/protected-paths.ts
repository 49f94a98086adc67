// Which workspace files change how the agent, git or the editor behave, so that writing them always asks
// (docs/reliability.md, threat model: a hostile repository, session file or model reply must not turn
// its own approvals off, plant a hook or a task). Pure string rules: the file-system half (real paths,
// the hooks folder git really uses, git folders found by their contents) is write-policy.ts, which every
// writer (the tools, a restore, its recovery, export) goes through.
//
// The list, matched case-insensitively (macOS and Windows file systems are), decisions in docs/reliability.md:
// - any path segment `.vscode` (settings, tasks, launch configs: VS Code runs and trusts them), at any depth
// - any path segment `.git` (config, hooks: git runs them), at any depth; also a `.git` file (gitdir link)
// - any segment `.husky` (husky makes it git's hooks folder at the next `npm install`)
// - any segment `.devcontainer`, and `.devcontainer.json` (commands run when the folder is reopened)
// - `.github/workflows/` (CI runs them with the repository's secrets on the next push)
// - any segment `.cursor` or `.claude`, `.mcp.json` (other agents' rules, hooks and MCP servers: commands)
// - any file named `*.code-workspace` (workspace settings, like .vscode/settings.json)
// - `.gitattributes`, `.gitmodules` (filters and submodule URLs git acts on)
// - `.envrc` (direnv runs it on `cd`)
// - `AGENTS.md`, `CLAUDE.md` (Arbor and other agents take them as instructions)
// - any segment `.agents`, and `.github/skills/` (Agent Skills: instructions Arbor lists and loads)
// Not protected: `package.json` and other build files (they run only when the user runs a build, like
// any source file; see docs/reliability.md).

export type ProtectedPathKind = 'editor' | 'git' | 'agent' | 'ci' | 'shell';

export interface ProtectedMatch {
  kind: ProtectedPathKind;
  /** the rule that matched, for the card: e.g. ".vscode/", "*.code-workspace" */
  rule: string;
}

const DIRECTORY_RULES: ReadonlyArray<readonly [string, ProtectedMatch]> = [
  ['.vscode', { kind: 'editor', rule: '.vscode/' }],
  ['.git', { kind: 'git', rule: '.git/' }],
  ['.husky', { kind: 'git', rule: '.husky/' }],
  ['.devcontainer', { kind: 'editor', rule: '.devcontainer/' }],
  ['.cursor', { kind: 'agent', rule: '.cursor/' }],
  ['.claude', { kind: 'agent', rule: '.claude/' }],
  ['.agents', { kind: 'agent', rule: '.agents/' }],
];

/** Two-segment folders (`.github/workflows/`), at any depth. */
const NESTED_DIRECTORY_RULES: ReadonlyArray<readonly [string, string, ProtectedMatch]> = [
  ['.github', 'workflows', { kind: 'ci', rule: '.github/workflows/' }],
  ['.github', 'skills', { kind: 'agent', rule: '.github/skills/' }],
];

const FILE_RULES: ReadonlyArray<readonly [string, ProtectedMatch]> = [
  ['.git', { kind: 'git', rule: '.git' }],
  ['.gitattributes', { kind: 'git', rule: '.gitattributes' }],
  ['.gitmodules', { kind: 'git', rule: '.gitmodules' }],
  ['.devcontainer.json', { kind: 'editor', rule: '.devcontainer.json' }],
  ['.envrc', { kind: 'shell', rule: '.envrc' }],
  ['.mcp.json', { kind: 'agent', rule: '.mcp.json' }],
  ['agents.md', { kind: 'agent', rule: 'AGENTS.md' }],
  ['claude.md', { kind: 'agent', rule: 'CLAUDE.md' }],
];

/** Windows 8.3 short names of the protected directories (`VSCODE~1`, `GIT~1`, `DEVCON~1`). */
const SHORT_NAME = /^(vscode|git|devcon\w{0,2})~\d+$/;

/**
 * One path segment as the most lenient file system would compare it: Unicode case folded, Windows'
 * ignored trailing dots and spaces removed, an NTFS stream suffix (`.git::$INDEX_ALLOCATION`) cut off.
 */
export function foldSegment(segment: string): string {
  const folded = segment.normalize('NFC').toUpperCase().toLowerCase();
  const streamless = folded.includes(':') ? folded.slice(0, folded.indexOf(':')) : folded;
  return streamless.replace(/[. ]+$/, '') || streamless;
}

/** Splits a relative path on both separators and drops empty and `.` segments (`..` was resolved before). */
export function pathSegments(relativePath: string): string[] {
  return relativePath.split(/[\\/]+/).filter((s) => s !== '' && s !== '.').map(foldSegment);
}

function directoryMatch(segment: string): ProtectedMatch | undefined {
  if (SHORT_NAME.test(segment)) return { kind: segment.startsWith('git') ? 'git' : 'editor', rule: `${segment} (short name)` };
  return DIRECTORY_RULES.find(([name]) => name === segment)?.[1];
}

function fileMatch(name: string): ProtectedMatch | undefined {
  if (name.endsWith('.code-workspace')) return { kind: 'editor', rule: '*.code-workspace' };
  return FILE_RULES.find(([rule]) => rule === name)?.[1] ?? directoryMatch(name);
}

function nestedMatch(segment: string, next: string): ProtectedMatch | undefined {
  return NESTED_DIRECTORY_RULES.find(([first, second]) => first === segment && second === next)?.[2];
}

/** True when a folder at this workspace-relative path holds protected paths below it (`.github` holds `workflows/`). */
export function leadsToProtected(relativePath: string): boolean {
  const segments = pathSegments(relativePath);
  return segments.length === 1 && NESTED_DIRECTORY_RULES.some(([first]) => first === segments[0]);
}

/** The rule a workspace-relative path falls under, or undefined for an ordinary file. */
export function protectedPathMatch(relativePath: string): ProtectedMatch | undefined {
  const segments = pathSegments(relativePath);
  if (segments.length === 0) return undefined;
  for (const [index, segment] of segments.slice(0, -1).entries()) {
    const match = directoryMatch(segment) ?? nestedMatch(segment, segments[index + 1]!);
    if (match) return match;
  }
  return fileMatch(segments[segments.length - 1]!);
}

/** Words in a shell command that name a protected path or rewrite git's config. */
const COMMAND_MENTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\.vscode\b/, '.vscode'],
  [/(^|[\s"'=/\\])\.git([\s"'/\\]|$)/, '.git'],
  [/\.code-workspace\b/, '*.code-workspace'],
  [/\.devcontainer\b/, '.devcontainer'],
  [/\.git(attributes|modules)\b/, '.gitattributes / .gitmodules'],
  [/\bagents\.md\b/, 'AGENTS.md'],
  [/\bclaude\.md\b/, 'CLAUDE.md'],
  [/\.husky\b/, '.husky'],
  [/\.github[\\/]+workflows\b/, '.github/workflows'],
  [/\.envrc\b/, '.envrc'],
  [/\.(cursor|claude)\b|\.mcp\.json\b/, '.cursor / .claude / .mcp.json'],
  [/\bgit\s+(-c\s|config\b)/, 'git config'],
  [/\bhookspath\b/, 'core.hooksPath'],
];

/**
 * The protected names a shell command mentions. A tripwire for `bash` set to "allow", not a boundary:
 * a command can reach any file without naming it (docs/reliability.md).
 */
export function commandMentions(command: string): string[] {
  const folded = command.normalize('NFKC').toUpperCase().toLowerCase();
  return COMMAND_MENTIONS.filter(([pattern]) => pattern.test(folded)).map(([, name]) => name);
}
