// The session's model and thinking-level changes, persisted as `model_change` / `thinking_level_change`
// entries: the user's picks (made while a turn runs, they are held and written between requests, so a
// request never changes model halfway) and a promotion to a larger model (written at once). Apart from
// agent-session.ts so the session only says whether it is busy.
import { sameModel } from '../llm/models';
import type { ModelInfo } from '../llm/types';
import type { SessionCoreHost } from './turn-inputs';

/** The session's current store and model, which applying a change moves on. */
export interface ModelChangesHost extends Pick<SessionCoreHost, 'store' | 'model' | 'emit'> {
  setModel(model: ModelInfo): void;
  /** A turn runs: picks are held until the request ends. */
  busy(): boolean;
  /** The meter's figures changed (another model: another window). */
  emitUsage(): void;
}

export class ModelChanges {
  private model: ModelInfo | undefined;
  private thinkingLevel: string | undefined;

  constructor(private readonly host: ModelChangesHost) {}

  /** The model the next request will use (a change waiting for the turn to end, else the current one). */
  get nextModel(): ModelInfo {
    return this.model ?? this.host.model();
  }

  /** The thinking level at the current leaf, or a change waiting for the turn to end. */
  get nextThinkingLevel(): string {
    return this.thinkingLevel ?? this.host.store().buildContext().thinkingLevel;
  }

  /** The user picked `model`: written now, or from the next request while a turn runs. */
  async pickModel(model: ModelInfo): Promise<void> {
    if (sameModel(model, this.nextModel)) return;
    this.model = model;
    if (this.host.busy()) {
      this.host.emit({ type: 'model_changed', model });
      return;
    }
    await this.apply();
    this.host.emitUsage();
  }

  /** The user picked a thinking level: written now, or from the next request while a turn runs. */
  async pickThinkingLevel(level: string): Promise<void> {
    if (level === this.nextThinkingLevel) return;
    this.thinkingLevel = level;
    if (this.host.busy()) {
      this.host.emit({ type: 'thinking_level_changed', level });
      return;
    }
    await this.apply();
  }

  /** Context promotion: written at once; the next request uses `model`. */
  async switchNow(model: ModelInfo): Promise<void> {
    const entry = await this.host.store().appendModelChange(model.provider, model.id);
    this.host.setModel(model);
    this.host.emit({ type: 'model_changed', model, entryId: entry.id });
    this.host.emitUsage();
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
