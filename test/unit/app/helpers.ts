// An ArborApp over temp dirs and the fake LLM server (real SDKs through loopback).
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../../fake-llm/server.mjs';
import { ArborApp, type AppChange } from '../../../src/app/arbor-app';
import { parseArborSettings, type ArborSettings, type RawArborSettings } from '../../../src/app/settings';
import type { ApprovalAnswer } from '../../../src/agent/approval';
import type { ApprovalRequest } from '../../../src/agent/events';
import { InMemoryLeafMemory } from '../../../src/session/leaf-memory';
import { fastRetry, keys } from '../llm/helpers';

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
  constructor(readonly answers: ApprovalAnswer[] = [], readonly fallback: ApprovalAnswer = { kind: 'approve' }) {}
  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    this.asked.push(request);
    return this.answers.shift() ?? this.fallback;
  }
}

export interface AppHarness {
  app: ArborApp;
  fake: FakeLlm;
  ws: string;
  sessionsDir: string;
  changes: AppChange[];
  prompter: ScriptedPrompter;
  logs: string[];
  setRaw(raw: RawArborSettings): void;
  settings(): ArborSettings;
}

export async function appHarness(options: { files?: Record<string, string>; raw?: RawArborSettings; prompter?: ScriptedPrompter; trusted?: boolean } = {}): Promise<AppHarness> {
  const fake = await fakeLlm();
  const base = await realpath(await mkdtemp(join(tmpdir(), 'arbor-app-')));
  cleanup.push(base);
  const ws = join(base, 'ws');
  const sessionsDir = join(base, 'sessions');
  await mkdir(ws);
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(ws, rel)), { recursive: true });
    await writeFile(join(ws, rel), content);
  }
  const fakeModel = {
    provider: 'openai', id: 'fake-gpt', name: 'Fake GPT', api: 'openai-completions', baseUrl: fake.openaiBaseUrl,
    contextWindow: 128000, maxOutputTokens: 1024,
  };
  let raw: RawArborSettings = { model: 'openai/fake-gpt', models: [fakeModel], ...(options.raw ?? {}) };
  let parsed = parseArborSettings(raw).settings;
  const prompter = options.prompter ?? new ScriptedPrompter();
  const logs: string[] = [];
  const log = { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`), error: (m: string) => logs.push(`error ${m}`) };
  const app = new ArborApp({
    sessionsDir: () => sessionsDir,
    journalsDir: () => join(base, 'own-storage'),
    workspaceRoots: [ws],
    trusted: () => options.trusted ?? true,
    settings: () => parsed,
    keys: keys(),
    leafMemory: new InMemoryLeafMemory(),
    prompter,
    log,
    providerOptions: fastRetry().options,
    compaction: { retry: { sleep: async () => undefined } },
    agent: { systemPrompt: 'You are a test agent.' },
  });
  await app.applySettings();
  const changes: AppChange[] = [];
  app.onDidChange((change) => changes.push(change));
  after(() => app.dispose());
  return {
    app, fake, ws, sessionsDir, changes, prompter, logs,
    setRaw(next) {
      raw = { ...raw, ...next };
      parsed = parseArborSettings(raw).settings;
    },
    settings: () => parsed,
  };
}
