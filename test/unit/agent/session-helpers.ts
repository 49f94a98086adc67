// A real AgentSession over a real SessionStore (temp dir), a temp workspace and the fake LLM server
// speaking the OpenAI or Anthropic wire format through the real SDKs.
import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import { startFakeLlm, type FakeLlm, type FakeRequest } from '../../fake-llm/server.mjs';
import { AgentSession } from '../../../src/agent/agent-session';
import type { AgentSessionDeps } from '../../../src/agent/agent-session-types';
import { ApprovalPolicy, type ApprovalAnswer } from '../../../src/agent/approval';
import type { AgentEvent, ApprovalRequest } from '../../../src/agent/events';
import type { Clock } from '../../../src/agent/idle-timer';
import { createTools } from '../../../src/agent/tools';
import { ToolRegistry } from '../../../src/agent/tools/tool-registry';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../../src/compaction';
import type { ModelInfo } from '../../../src/llm/types';
import { SessionStore } from '../../../src/session/store';
import type { SessionEntry } from '../../../src/session/entries';
import { anthropicModel, fastRetry, keys, openaiModel } from '../llm/helpers';

export type Api = 'openai' | 'anthropic';

let shared: FakeLlm | undefined;
const cleanup: string[] = [];
after(async () => {
  await shared?.close();
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

export async function fakeLlm(): Promise<FakeLlm> {
  shared ??= await startFakeLlm();
  shared.reset();
  return shared;
}

export class ScriptedPrompter {
  readonly asked: ApprovalRequest[] = [];
  /** answers in order; when empty, `fallback` */
  constructor(
    readonly answers: ApprovalAnswer[] = [],
    readonly fallback: ApprovalAnswer | 'hang' = { kind: 'approve' },
  ) {}

  ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.asked.push(request);
    const answer = this.answers.shift() ?? this.fallback;
    return answer === 'hang' ? new Promise(() => undefined) : Promise.resolve(answer);
  }
}

export { ManualClock } from './manual-clock';

export interface Harness {
  agent: AgentSession;
  store: SessionStore;
  fake: FakeLlm;
  model: ModelInfo;
  ws: string;
  sessionDir: string;
  events: AgentEvent[];
  prompter: ScriptedPrompter;
  settings: CompactionSettings;
  /** chat-completion / responses / messages requests only (no count_tokens etc.) */
  llmRequests(): FakeRequest[];
}

export interface HarnessOptions {
  api?: Api;
  files?: Record<string, string>;
  prompter?: ScriptedPrompter;
  trusted?: boolean;
  model?: Partial<ModelInfo>;
  settings?: Partial<CompactionSettings>;
  clock?: Clock;
  deps?: Partial<AgentSessionDeps>;
}

export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = await fakeLlm();
  const base = await realpath(await mkdtemp(join(tmpdir(), 'arbor-agent-')));
  cleanup.push(base);
  const ws = join(base, 'ws');
  const sessionDir = join(base, 'sessions');
  await mkdir(ws);
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(ws, rel)), { recursive: true });
    await writeFile(join(ws, rel), content);
  }
  const store = await SessionStore.create({ dir: sessionDir, cwd: ws });
  const api = options.api ?? 'openai';
  const model = api === 'openai' ? openaiModel(fake.openaiBaseUrl, options.model) : anthropicModel(fake.anthropicBaseUrl, options.model);
  const prompter = options.prompter ?? new ScriptedPrompter();
  const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, remoteEnabled: false, ...options.settings };
  const agent = new AgentSession({
    store,
    model,
    keys: keys(),
    providerOptions: fastRetry().options,
    tools: new ToolRegistry(createTools({ ripgrep: false })),
    approval: new ApprovalPolicy(),
    prompter,
    workspace: { folders: [{ name: 'ws', path: ws }] },
    trusted: options.trusted ?? true,
    systemPrompt: 'You are a test agent.',
    compaction: { settings: () => settings, retry: { baseDelayMs: 1, sleep: async () => {} } },
    ...(options.clock ? { clock: options.clock } : {}),
    ...options.deps,
  });
  const events: AgentEvent[] = [];
  agent.onEvent((e) => events.push(e));
  return {
    agent,
    store,
    fake,
    model,
    ws,
    sessionDir,
    events,
    prompter,
    settings,
    llmRequests: () => fake.requests.filter((r) => ['/v1/chat/completions', '/v1/responses', '/v1/messages'].includes(r.path)),
  };
}

/** Entry shapes of the session FILE (read from disk), e.g. "user", "assistant:toolUse", "toolResult:read". */
export async function fileEntries(store: SessionStore): Promise<string[]> {
  const lines = (await readFile(store.file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  return lines.slice(1).map((line) => describeEntry(JSON.parse(line) as SessionEntry));
}

export function describeEntry(entry: SessionEntry): string {
  if (entry.type === 'message') {
    const m = (entry as { message: { role: string; stopReason?: string; toolName?: string; isError?: boolean } }).message;
    if (m.role === 'assistant') return `assistant:${m.stopReason}`;
    if (m.role === 'toolResult') return `toolResult:${m.toolName}${m.isError ? ':error' : ''}`;
    return m.role;
  }
  if (entry.type === 'custom_message') return `custom_message:${(entry as { customType: string }).customType}`;
  return entry.type;
}

/** Path entries (root → leaf) as shapes. */
export function pathEntries(store: SessionStore): string[] {
  return store.getBranch().map(describeEntry);
}

/** Text of everything the provider got in one request (system, messages, tool results). */
export function requestText(request: FakeRequest): string {
  return JSON.stringify(request.body.messages ?? []);
}

export function lastUserText(request: FakeRequest): string {
  const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') return JSON.stringify(messages[i]!.content);
  }
  return '';
}

export function waitFor(events: AgentEvent[], predicate: (e: AgentEvent) => boolean, timeoutMs = 5000): Promise<AgentEvent> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      const found = events.find(predicate);
      if (found) return resolve(found);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out waiting for an agent event'));
      setTimeout(check, 5);
    };
    check();
  });
}

/** Polls until `condition` holds (e.g. the fake server has logged a request). */
export function waitUntil(condition: () => boolean, timeoutMs = 5000, what = 'a condition'): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (condition()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(check, 5);
    };
    check();
  });
}

/** A checkpoint that passes the summary guard. */
export function summaryText(tag: string): string {
  return [
    `## Goal\n${tag} goal`,
    '## Constraints & Preferences\n- (none)',
    '## Progress\n### Done\n- [x] thing\n### In Progress\n- [ ] other\n### Blocked\n- (none)',
    '## Key Decisions\n- **A**: because',
    '## Next Steps\n1. next',
    '## Critical Context\n- (none)',
  ].join('\n\n');
}
