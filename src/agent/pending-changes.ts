// Model and thinking-level changes the user makes while a turn runs: held here and persisted (as
// `model_change` / `thinking_level_change` entries) between requests, so a request never changes model
// halfway. Apart from agent-session.ts so the session keeps only the question of when to apply them.
import { sameModel } from '../llm/models';
import type { ModelInfo } from '../llm/types';
import type { SessionCoreHost } from './turn-inputs';

/** The session's current store and model, which applying a change moves on. */
export interface PendingChangesHost extends Pick<SessionCoreHost, 'store' | 'model' | 'emit'> {
  setModel(model: ModelInfo): void;
}

export class PendingChanges {
  private model: ModelInfo | undefined;
  private thinkingLevel: string | undefined;

  constructor(private readonly host: PendingChangesHost) {}

  /** The model the next request will use (a change waiting for the turn to end, else the current one). */
  get nextModel(): ModelInfo {
    return this.model ?? this.host.model();
  }

  /** The thinking level at the current leaf, or a change waiting for the turn to end. */
  get nextThinkingLevel(): string {
    return this.thinkingLevel ?? this.host.store().buildContext().thinkingLevel;
  }

  holdModel(model: ModelInfo): void {
    this.model = model;
  }

  holdThinkingLevel(level: string): void {
    this.thinkingLevel = level;
  }

  /**
   * Persists what is held (each only when it differs from the current value) and forgets it. Awaits only
   * the writes: with nothing to write it settles as soon as an empty async call does.
   */
  async apply(): Promise<void> {
    const model = this.takeModel();
    if (model) {
      const entry = await this.host.store().appendModelChange(model.provider, model.id);
      this.host.setModel(model);
      this.host.emit({ type: 'model_changed', model, entryId: entry.id });
    }
    const level = this.takeThinkingLevel();
    if (level !== undefined) {
      const entry = await this.host.store().appendThinkingLevelChange(level);
      this.host.emit({ type: 'thinking_level_changed', level, entryId: entry.id });
    }
  }

  /** The held model when it differs from the current one; held no more either way. */
  private takeModel(): ModelInfo | undefined {
    const model = this.model;
    this.model = undefined;
    return model && !sameModel(model, this.host.model()) ? model : undefined;
  }

  /** The held level when it differs from the one at the leaf; held no more either way. */
  private takeThinkingLevel(): string | undefined {
    const level = this.thinkingLevel;
    this.thinkingLevel = undefined;
    return level !== undefined && level !== this.host.store().buildContext().thinkingLevel ? level : undefined;
  }
}
