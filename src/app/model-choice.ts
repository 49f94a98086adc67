// Which model and thinking level the app's chat uses: the user's pick, `arbor.model` / `arbor.thinkingLevel`
// (applied again on every settings change without a reload), an opened session's own model, or an
// automatic choice (a provider with a key, a local server, else the offline demo). The agent persists
// what it is given; this object only decides. The UIs call it as the member `app.models` (ModelChoiceApi):
// nothing forwards it.
import type { AgentSession } from '../agent/agent-session';
import { findModel, modelKey, DEMO_MODEL } from '../llm/models';
import { autoPickOrder, providerById } from '../llm/providers';
import type { KeyResolver, ModelInfo, ThinkingLevel } from '../llm/types';
import type { SessionStore } from '../session/store';
import { modelView, type AppLogger, type ModelView } from './app-types';
import { done, refused, type AppOutcome } from './app-outcome';
import { LOCAL_PROVIDER, THINKING_LEVELS, type ArborSettings } from './settings';

export interface ModelChoiceDeps {
  settings: () => ArborSettings;
  keys: KeyResolver;
  log?: AppLogger;
  /** the agent of the open session, if any */
  agent: () => AgentSession | undefined;
  /** the model or thinking level was switched (the UIs hear a settings change) */
  changed(): void;
}

/** What the UIs use of the model choice (the rest is the app's own wiring). */
export type ModelChoiceApi = Pick<ModelChoice, 'current' | 'currentKey' | 'currentThinkingLevel' | 'available' | 'set' | 'setThinkingLevel'>;

export class ModelChoice {
  private model: ModelInfo;
  private modelChosen = false;
  /** counts choices (Select Model, a changed arbor.model): a settings change still resolving when a later
   * choice was made drops its result instead of undoing that choice */
  private choices = 0;
  private thinkingLevel: ThinkingLevel;
  private lastModelSetting: string;
  private lastThinkingSetting: ThinkingLevel;
  /** providers that need a key and have none, as of the last applySettings (keys changes apply settings) */
  private missingKeys = new Set<string>();

  constructor(private readonly deps: ModelChoiceDeps) {
    const settings = deps.settings();
    this.lastModelSetting = settings.model;
    this.lastThinkingSetting = settings.thinkingLevel;
    this.thinkingLevel = settings.thinkingLevel;
    this.model = findModel(settings.models, settings.model) ?? DEMO_MODEL;
  }

  get current(): ModelInfo {
    return this.deps.agent()?.model ?? this.model;
  }

  /** the current model as `provider/id` */
  get currentKey(): string {
    return modelKey(this.current);
  }

  get currentThinkingLevel(): string {
    return this.deps.agent()?.thinkingLevel ?? this.thinkingLevel;
  }

  /** Every model the user can pick (built-ins, `arbor.models`, the local server). */
  available(): ModelView[] {
    return this.deps.settings().models.map((model) => this.view(model));
  }

  private view(model: ModelInfo): ModelView {
    return { ...modelView(model), keyMissing: this.missingKeys.has(model.provider) };
  }

  /** Finds which providers of the configured models need a key that is not set. */
  private async refreshKeys(models: readonly ModelInfo[]): Promise<void> {
    const missing = new Set<string>();
    for (const provider of new Set(models.map((m) => m.provider))) {
      if (providerById(provider)?.key !== 'required') continue;
      if ((await this.deps.keys.getKey(provider).catch(() => undefined)) === undefined) missing.add(provider);
    }
    this.missingKeys = missing;
  }

  /** Switches the model ("provider/id" or a bare id); persisted in the session when one is open. */
  async set(key: string): Promise<AppOutcome<ModelView>> {
    const model = findModel(this.deps.settings().models, key.trim());
    if (!model) return refused('unknown-model', `Unknown model "${key}". Pick one with "Arbor: Select Model" or add it to arbor.models.`);
    this.choices++;
    this.model = model;
    this.modelChosen = true;
    await this.deps.agent()?.setModel(model);
    this.deps.changed();
    return done(this.view(model));
  }

  async setThinkingLevel(level: string): Promise<AppOutcome> {
    if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
      return refused('unknown-thinking-level', `Unknown thinking level "${level}" (expected one of ${THINKING_LEVELS.join(', ')}).`);
    }
    this.thinkingLevel = level as ThinkingLevel;
    await this.deps.agent()?.setThinkingLevel(level);
    this.deps.changed();
    return done();
  }

  /**
   * Picks the model to use when none was chosen: `arbor.model` when it names a configured model, else
   * the first provider with a key or base URL (Anthropic, OpenAI, a local server), else the offline demo.
   */
  async resolveDefault(): Promise<ModelInfo> {
    const settings = this.deps.settings();
    const configured = findModel(settings.models, settings.model);
    if (configured) return configured;
    if (settings.model) this.deps.log?.warn(`arbor.model: "${settings.model}" is not a known model; choosing one automatically.`);
    if (settings.baseUrls.local) {
      const local = settings.models.find((m) => m.provider === LOCAL_PROVIDER);
      if (local) return local;
    }
    for (const { id: provider, key } of autoPickOrder()) {
      const usable = key === 'none' || settings.baseUrls[provider] !== undefined || (await this.deps.keys.getKey(provider).catch(() => undefined)) !== undefined;
      if (!usable) continue;
      const model = settings.models.find((m) => m.provider === provider);
      if (model) return model;
    }
    return DEMO_MODEL;
  }

  /** Applies `arbor.model` and `arbor.thinkingLevel` (at start and on every settings change). */
  async applySettings(settings: ArborSettings): Promise<void> {
    // decided before anything is awaited, so changes apply in the order they came
    const modelSettingChanged = settings.model !== this.lastModelSetting;
    this.lastModelSetting = settings.model;
    const choice = modelSettingChanged || !this.modelChosen ? ++this.choices : undefined;
    await this.refreshKeys(settings.models);
    if (choice !== undefined) await this.applyModelSetting(settings, modelSettingChanged, choice);
    else {
      // the registry may have changed (a new base URL, a user override): refresh the same model
      const refreshed = findModel(settings.models, modelKey(this.current));
      if (refreshed) this.model = refreshed;
    }
    if (settings.thinkingLevel !== this.lastThinkingSetting) {
      this.lastThinkingSetting = settings.thinkingLevel;
      this.thinkingLevel = settings.thinkingLevel;
      await this.deps.agent()?.setThinkingLevel(settings.thinkingLevel);
    }
  }

  /** Takes the model `arbor.model` names (or the default) unless a later choice came in meanwhile. */
  private async applyModelSetting(settings: ArborSettings, changed: boolean, choice: number): Promise<void> {
    const model = await this.resolveDefault();
    if (choice !== this.choices) return;
    this.model = model;
    const agent = this.deps.agent();
    // Keep an opened session's own model unless the user changed arbor.model just now.
    if (agent && (changed || agent.store.entryCount === 0)) await agent.setModel(model);
    if (changed) this.modelChosen = settings.model !== '';
  }

  /** An opened session continues with the model it used last, when that model is still configured. */
  forSession(store: SessionStore): ModelInfo {
    if (store.entryCount > 0) {
      const recorded = store.buildContext().model;
      const found = recorded ? findModel(this.deps.settings().models, `${recorded.provider}/${recorded.modelId}`) : undefined;
      if (found) return found;
    }
    return this.model;
  }

  /** A new, empty session starts at the configured thinking level (persisted like any change). */
  async startSession(agent: AgentSession, store: SessionStore): Promise<void> {
    if (store.entryCount === 0 && this.thinkingLevel !== agent.thinkingLevel && this.model.reasoning) {
      await agent.setThinkingLevel(this.thinkingLevel);
    }
  }
}
