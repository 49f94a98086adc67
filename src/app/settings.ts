// Every `arbor.*` setting the application controller uses, validated in one place. The VS Code adapter
// (src/vscode/settings/arbor-settings.ts) only copies raw values out of the configuration; parsing lives here so it is
// unit-tested without VS Code. A bad value costs only that value: one warning each, then its default.
import { DEFAULT_EDITOR_TOOL_SETTINGS, parseEditorToolSettings, type EditorToolSettings, type RawEditorToolSettings } from './editor-tool-settings';
import { parseApprovalSettings, type ApprovalSetting } from '../agent/approval';
import { parseBranchSummarySettings, type BranchSummarySettings } from '../branch/settings';
import { parseCompactionSettings, DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../compaction/settings';
import { DEFAULT_BRANCH_SUMMARY_SETTINGS } from '../branch/settings';
import { DEFAULT_CHECKPOINT_SETTINGS, parseCheckpointSettings, type CheckpointSettings } from './checkpoint-settings';
import { checkKeyTransport } from '../llm/key-transport';
import { BUILTIN_MODELS, modelKey, resolveModels } from '../llm/models';
import { baseUrlProviders, providerById } from '../llm/providers';
import type { ModelInfo, ThinkingLevel } from '../llm/types';

export const THINKING_LEVELS: readonly ThinkingLevel[] = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'];
/** Providers with an `arbor.providers.<id>.baseUrl` setting (from the provider table). */
export const PROVIDER_BASE_URL_KEYS: readonly string[] = baseUrlProviders().map((p) => p.id);
export type BaseUrlProvider = string;

/** The provider id of the model made from `arbor.providers.local.baseUrl`. */
export const LOCAL_PROVIDER = 'local';

export interface ArborSettings {
  /** `arbor.model`: "provider/id" (or a bare id); '' = choose automatically */
  model: string;
  /** built-ins + `arbor.models`, with provider base URLs applied (and the local server's model) */
  models: ModelInfo[];
  thinkingLevel: ThinkingLevel;
  approval: Record<string, ApprovalSetting>;
  compaction: CompactionSettings;
  branchSummary: BranchSummarySettings;
  /** `arbor.checkpoints.*`: file checkpoints (issue #15) */
  checkpoints: CheckpointSettings;
  baseUrls: Partial<Record<BaseUrlProvider, string>>;
  /** `arbor.sessions.directory`; '' = the extension's storage */
  sessionsDirectory: string;
  /** `arbor.tools.diagnosticsAfterEdit`, `arbor.vscodeTools.*`: the tools that come from the editor */
  editorTools: EditorToolSettings;
  /** `arbor.skills.paths`: more user skill folders (machine-scoped) */
  skillPaths: string[];
  /** `arbor.instructions.globalFiles`: more global instruction files (machine-scoped) */
  globalInstructionFiles: string[];
}

/** Raw values as read from the configuration (undefined = not set). */
export interface RawArborSettings {
  model?: unknown;
  models?: unknown;
  thinkingLevel?: unknown;
  toolsApproval?: unknown;
  compaction?: unknown;
  branchSummary?: unknown;
  checkpoints?: unknown;
  /** VS Code's `files.exclude` (glob → true/false/condition) */
  filesExclude?: unknown;
  baseUrls?: Partial<Record<BaseUrlProvider, unknown>>;
  sessionsDirectory?: unknown;
  editorTools?: RawEditorToolSettings;
  skillPaths?: unknown;
  globalInstructionFiles?: unknown;
  /** context window reported by the local server (detected by the host; optional) */
  localContextWindow?: number;
  /** model id served by the local server (from its /v1/models; optional) */
  localModelId?: string;
  /** models the editor offers (VS Code's Language Model API), found by the host at run time */
  hostModels?: readonly ModelInfo[];
}

export interface ParsedArborSettings {
  settings: ArborSettings;
  /** one per invalid value, ready to show ("arbor.x: … using the default …") */
  warnings: string[];
}

export const DEFAULT_LOCAL_CONTEXT_WINDOW = 32_768;

export function defaultArborSettings(): ArborSettings {
  return {
    model: '',
    models: resolveModels(undefined).models,
    thinkingLevel: 'off',
    approval: {},
    compaction: { ...DEFAULT_COMPACTION_SETTINGS },
    branchSummary: { ...DEFAULT_BRANCH_SUMMARY_SETTINGS },
    checkpoints: { ...DEFAULT_CHECKPOINT_SETTINGS, exclude: [], filesExclude: [] },
    baseUrls: {},
    sessionsDirectory: '',
    editorTools: { ...DEFAULT_EDITOR_TOOL_SETTINGS },
    skillPaths: [],
    globalInstructionFiles: [],
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function parseArborSettings(raw: RawArborSettings): ParsedArborSettings {
  const warnings: string[] = [];
  const settings = defaultArborSettings();

  if (raw.model !== undefined && raw.model !== null) {
    if (typeof raw.model === 'string') settings.model = raw.model.trim();
    else warnings.push(`arbor.model: ${JSON.stringify(raw.model)} is not valid (expected "provider/id"); choosing the model automatically.`);
  }

  for (const provider of PROVIDER_BASE_URL_KEYS) {
    const value = raw.baseUrls?.[provider];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string' && isHttpUrl(value.trim())) settings.baseUrls[provider] = value.trim().replace(/\/+$/, '');
    else warnings.push(`arbor.providers.${provider}.baseUrl: ${JSON.stringify(value)} is not an http(s) URL; using the default.`);
  }
  warnings.push(...keyTransportWarnings(settings.baseUrls));

  const resolved = resolveModels(raw.models ?? undefined, BUILTIN_MODELS);
  for (const problem of resolved.problems) warnings.push(`arbor.${problem.startsWith('models') ? '' : 'models: '}${problem}`);
  settings.models = withHostModels(applyBaseUrls(resolved.models, settings.baseUrls, raw), raw.hostModels ?? []);

  if (raw.thinkingLevel !== undefined && raw.thinkingLevel !== null) {
    if (typeof raw.thinkingLevel === 'string' && (THINKING_LEVELS as readonly string[]).includes(raw.thinkingLevel)) {
      settings.thinkingLevel = raw.thinkingLevel as ThinkingLevel;
    } else {
      warnings.push(`arbor.thinkingLevel: ${JSON.stringify(raw.thinkingLevel)} is not one of ${THINKING_LEVELS.join(', ')}; using the default "off".`);
    }
  }

  const approval = parseApprovalSettings(raw.toolsApproval);
  settings.approval = approval.settings;
  for (const problem of approval.problems) warnings.push(`arbor.tools.approval: ${problem}`);

  const compaction = parseCompactionSettings(raw.compaction);
  settings.compaction = compaction.settings;
  warnings.push(...compaction.warnings);

  const branch = parseBranchSummarySettings(raw.branchSummary);
  settings.branchSummary = branch.settings;
  warnings.push(...branch.warnings);

  const checkpoints = parseCheckpointSettings(raw.checkpoints, raw.filesExclude);
  settings.checkpoints = checkpoints.settings;
  warnings.push(...checkpoints.warnings);

  const editorTools = parseEditorToolSettings(raw.editorTools);
  settings.editorTools = editorTools.settings;
  warnings.push(...editorTools.warnings);

  if (raw.sessionsDirectory !== undefined && raw.sessionsDirectory !== null) {
    if (typeof raw.sessionsDirectory === 'string') settings.sessionsDirectory = raw.sessionsDirectory.trim();
    else warnings.push(`arbor.sessions.directory: ${JSON.stringify(raw.sessionsDirectory)} is not a path; using the default.`);
  }
  settings.skillPaths = pathList('arbor.skills.paths', raw.skillPaths, warnings);
  settings.globalInstructionFiles = pathList('arbor.instructions.globalFiles', raw.globalInstructionFiles, warnings);
  return { settings, warnings };
}

/** A list of paths; anything else is reported and ignored. */
function pathList(setting: string, raw: unknown, warnings: string[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    warnings.push(`${setting}: ${JSON.stringify(raw)} is not a list of paths; ignored.`);
    return [];
  }
  const paths = raw.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());
  if (paths.length !== raw.length) warnings.push(`${setting}: entries that are not paths were ignored.`);
  return paths;
}

/**
 * Providers whose key is required always send it, so a base URL that would carry it over plain http to another
 * machine is reported at load time; each request is refused as well (src/llm/key-transport.ts).
 */
function keyTransportWarnings(baseUrls: ArborSettings['baseUrls']): string[] {
  const out: string[] = [];
  for (const provider of PROVIDER_BASE_URL_KEYS.filter((id) => providerById(id)?.key === 'required')) {
    const url = baseUrls[provider];
    const verdict = url ? checkKeyTransport(url, true) : undefined;
    if (verdict && !verdict.ok) out.push(`arbor.providers.${provider}.baseUrl: ${verdict.message}`);
  }
  return out;
}

/** Built-in models of a provider with a base URL setting take it (unless a model sets its own); a local URL adds a model. */
function applyBaseUrls(models: ModelInfo[], baseUrls: ArborSettings['baseUrls'], raw: RawArborSettings): ModelInfo[] {
  const out = models.map((model) => {
    const url = model.provider === LOCAL_PROVIDER ? undefined : baseUrls[model.provider];
    return url && !model.baseUrl ? { ...model, baseUrl: url } : model;
  });
  const local = baseUrls.local;
  if (local && !out.some((m) => m.provider === LOCAL_PROVIDER)) {
    const id = raw.localModelId ?? 'default';
    out.push({
      provider: LOCAL_PROVIDER,
      id,
      name: `Local (${id})`,
      api: 'openai-compatible',
      baseUrl: /\/v1$/.test(local) ? local : `${local}/v1`,
      contextWindow: raw.localContextWindow ?? DEFAULT_LOCAL_CONTEXT_WINDOW,
      maxOutputTokens: 4096,
      reasoning: false,
      pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
  }
  return out;
}

/** The editor's models join the list; an `arbor.models` entry with the same key (an override) wins. */
function withHostModels(models: ModelInfo[], hostModels: readonly ModelInfo[]): ModelInfo[] {
  const known = new Set(models.map(modelKey));
  return [...models, ...hostModels.filter((m) => !known.has(modelKey(m)))];
}
