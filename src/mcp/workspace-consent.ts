// A workspace's `.vscode/mcp.json` is repository content: a server it names would run with the user's
// rights. Its servers are read only in a trusted workspace, and each runs only after the user agreed in a
// question that shows the exact command line or URL. The answer is remembered per workspace folder and
// per hash of what runs (launchFingerprint), so a changed command, argument, env, cwd, URL or header asks
// again (docs/reliability.md, threat model). Arbor's own approval choices in such a file are ignored.
import { createHash } from 'node:crypto';
import { launchFingerprint, type ParsedServers, type ServerConfig } from './config';
import type { ServerEntry } from './servers';

export type ConsentAnswer = 'allowed' | 'declined';

export interface WorkspaceConsentHost {
  trusted(): boolean;
  remembered(key: string): ConsentAnswer | undefined;
  remember(key: string, answer: ConsentAnswer): Promise<void>;
  /** the modal question; undefined: dismissed (not remembered, asked again next time) */
  ask(server: string, config: ServerConfig, file: string): Promise<ConsentAnswer | undefined>;
}

/** One folder's mcp.json, read. */
export interface WorkspaceServersFile {
  /** the workspace folder it belongs to (absolute path): part of the consent key */
  folder: string;
  file: string;
  parsed: ParsedServers;
}

export interface HeldServer {
  name: string;
  file: string;
  folder: string;
  config: ServerConfig;
  /** its consent key (consentKey), what "ask again" forgets */
  key: string;
  /** why it does not run */
  reason: 'untrusted' | 'declined' | 'unanswered' | 'name taken by a user server';
}

export interface WorkspaceServers {
  entries: Map<string, ServerEntry>;
  held: HeldServer[];
}

export function consentKey(folder: string, server: string, config: ServerConfig): string {
  const hash = createHash('sha256').update(`${folder}\0${server}\0${launchFingerprint(config)}`).digest('hex');
  return `mcp-consent:${hash.slice(0, 32)}`;
}

/** The remembered answer under `key`, else (when `askNow`) the user's, remembered unless dismissed. */
async function answerFor(host: WorkspaceConsentHost, key: string, file: WorkspaceServersFile, name: string, config: ServerConfig, askNow: boolean): Promise<ConsentAnswer | undefined> {
  const known = host.remembered(key);
  if (known || !askNow) return known;
  const answer = await host.ask(name, config, file.file);
  if (answer) await host.remember(key, answer);
  return answer;
}

/**
 * Arbor's per-server choices that lower approval or change limits (readOnlyTools, trustReadOnlyHints,
 * disabledTools, toolTimeout) are the user's alone: a repository's mcp.json setting them is ignored, so
 * its tools always ask (docs/reliability.md, "repository (.vscode/mcp.json)").
 */
export function withoutUserChoices(config: ServerConfig): ServerConfig {
  const { readOnlyTools: _r, trustReadOnlyHints: _t, disabledTools: _d, toolTimeout: _o, ...rest } = config;
  return rest as ServerConfig;
}

/**
 * The workspace servers that may run now. `taken` are the names of the user's own servers (they win).
 * `askNow` false: nothing is asked, servers without a remembered answer are held as 'unanswered'.
 */
export async function workspaceServers(files: readonly WorkspaceServersFile[], taken: ReadonlySet<string>, host: WorkspaceConsentHost, askNow = true): Promise<WorkspaceServers> {
  const out: WorkspaceServers = { entries: new Map(), held: [] };
  for (const file of files) {
    for (const [name, config] of file.parsed.servers) {
      const key = consentKey(file.folder, name, config);
      const hold = (reason: HeldServer['reason']) => out.held.push({ name, file: file.file, folder: file.folder, config, key, reason });
      if (!host.trusted()) hold('untrusted');
      else if (taken.has(name) || out.entries.has(name)) hold('name taken by a user server');
      else {
        const answer = await answerFor(host, key, file, name, config, askNow);
        if (answer === 'allowed') out.entries.set(name, { config: withoutUserChoices(config), source: 'workspace', inputs: file.parsed.inputs, scope: key });
        else hold(answer === 'declined' ? 'declined' : 'unanswered');
      }
    }
  }
  return out;
}
