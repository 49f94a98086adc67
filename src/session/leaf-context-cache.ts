// The context of the leaf the store built last, kept so the next turn's context extends it instead of walking
// the whole path again: a turn costs the same at entry 500 as at entry 35,000 (docs/architecture.md).
import { applySettings, contextFromView, contextMessageFromEntry, type SessionContext } from './context';
import type { SessionEntry } from './entries';
import type { EntryIndex } from './entry-index';

/** Entries that change messages before them in the context, so a cached context cannot just be extended. */
const RESHAPING_TYPES = new Set(['compaction', 'context_edit', 'reset_boundary']);

export class LeafContextCache {
  private cached: { leafId: string; context: SessionContext } | undefined;

  /** The context for `leaf` (a copy the caller may change), reusing the cached one where it can. */
  contextFor(leaf: SessionEntry, index: EntryIndex): SessionContext {
    const context = this.extend(leaf, index) ?? contextFromView(index.pathView(leaf));
    this.cached = { leafId: leaf.id, context };
    return copyContext(context);
  }

  /**
   * Extends the cached context when `leaf` descends from the cached leaf by a few entries that only add
   * messages (a compaction, a reset boundary or a context edit changes earlier messages: built anew).
   */
  private extend(leaf: SessionEntry, index: EntryIndex): SessionContext | undefined {
    const cache = this.cached;
    if (!cache) return undefined;
    if (cache.leafId === leaf.id) return cache.context;
    const added: SessionEntry[] = [];
    let current: SessionEntry | undefined = leaf;
    while (current && current.id !== cache.leafId) {
      if (added.length >= 64 || RESHAPING_TYPES.has(current.type) || index.isRoot(current)) return undefined;
      added.push(current);
      current = index.get(current.parentId!);
    }
    if (!current) return undefined;
    const context = copyContext(cache.context);
    for (let i = added.length - 1; i >= 0; i--) {
      const entry = added[i]!;
      applySettings(entry, context);
      const message = contextMessageFromEntry(entry);
      if (message) context.messages.push(message);
    }
    return context;
  }
}

function copyContext(context: SessionContext): SessionContext {
  return {
    messages: context.messages.slice(),
    thinkingLevel: context.thinkingLevel,
    model: context.model ? { ...context.model } : null,
  };
}
