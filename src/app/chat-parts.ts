// What one chat exposes to the UIs, part by part: its open session (new, open, fork, rename) and what it
// shows (views), its model choice, its tree actions, manual compaction and the file checkpoints. ArborApp has these as members and nothing forwards
// them: a new action is a method of its part, and the chat (src/vscode/chat-requests.ts) and the commands
// (through the focused-chat proxy below) call it there. docs/architecture.md, "Adding things".
import type { CheckpointService } from './checkpoint-service';
import type { CompactionActionsApi } from './compaction-actions';
import type { ModelChoiceApi } from './model-choice';
import type { SessionActionsApi } from './open-session';
import type { SessionViewsApi } from './session-views';
import type { TreeActionsApi } from './tree-actions';

/** What the UIs use of the file checkpoints (shared by every chat); a session's file actions are `tree`'s. */
export type CheckpointsApi = Pick<CheckpointService, 'settings' | 'blobPath' | 'journalsFolder' | 'pathOf' | 'storeSize' | 'collect'>;

export interface ChatParts {
  /** the open session: new, open, fork, rename, what it is (open-session.ts) */
  readonly session: SessionActionsApi;
  /** what the UIs read of the open session: conversation pages, entries, tree nodes, totals (session-views.ts) */
  readonly views: SessionViewsApi;
  /** the model and thinking level (model-choice.ts) */
  readonly models: ModelChoiceApi;
  /** switch, branch, label, pin, summarize, carry, restore files (tree-actions.ts) */
  readonly tree: TreeActionsApi;
  /** manual compaction: compact (a cut, a review, a handoff), cancel, preview (compaction-actions.ts) */
  readonly compaction: CompactionActionsApi;
  /** file checkpoints (checkpoint-service.ts) */
  readonly checkpoints: CheckpointsApi;
}

/** Every part's name; the compiler fails here when ChatParts gains a part this list lacks. */
const PART_NAMES = ['session', 'views', 'models', 'tree', 'compaction', 'checkpoints'] as const;
const everyPartNamed: Exclude<keyof ChatParts, (typeof PART_NAMES)[number]> extends never ? true : never = true;
void everyPartNamed;

/**
 * `target` with each part of whichever chat `chat()` names when the part is asked for: with the focused
 * chat (ArborChats), the one proxy the commands and the other surfaces use, following the focus as it moves.
 */
export function withChatParts<T extends object>(target: T, chat: () => ChatParts): T & ChatParts {
  for (const name of PART_NAMES) Object.defineProperty(target, name, { get: () => chat()[name], enumerable: true });
  return target as T & ChatParts;
}

/** The parts alone (see withChatParts). */
export function chatPartsOf(chat: () => ChatParts): ChatParts {
  return withChatParts({}, chat);
}
