// Compaction prompt templates (prompts/compaction/*.md), without the final newline editors add to
// Markdown files, so joined pieces are separated exactly as written in code.
import { renderPrompt } from '../core/prompts';

export type CompactionTemplate =
  | 'system'
  | 'summary'
  | 'update-summary'
  | 'turn-prefix'
  | 'short-summary'
  | 'recap-section'
  | 'handoff'
  | 'handoff-context'
  | 'handoff-focus'
  | 'auto-continue'
  | 'conversation'
  | 'previous-summary'
  | 'additional-context'
  | 'focus'
  | 'split-turn'
  | 'split-turn-note'
  | 'no-prior-history'
  | 'guard-retry'
  | 'kept-constraints'
  | 'continuation'
  | 'continuation-earlier'
  | 'user-words'
  | 'user-words-message'
  | 'user-words-ledger'
  | 'user-words-note'
  | 'user-ledger-request'
  | 'ledger-retry'
  | 'elided-paste'
  | 'bridge'
  | 'bridge-omitted';

export function compactionPrompt(name: CompactionTemplate, vars: Record<string, string> = {}): string {
  return renderPrompt(`compaction/${name}`, vars).replace(/\r?\n$/, '');
}
