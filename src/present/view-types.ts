// The chat's view of one entry, as the entry kinds (./kinds/) build it: one variant per kind of the
// protocol's conversation items (src/protocol/conversation-items.ts), with the same fields, so the chat view
// only bounds them and maps ids (src/vscode/chat-items.ts). What the app adds is named below: real entry
// ids and parents (the protocol carries wire ids: wire-ids.ts), the ISO timestamp, the repairs made, and
// the tool-call pairing. Plain serialisable data; src/app/view-model.ts adds the tree's node view, whose kind
// is the protocol's TreeNodeKind (src/protocol/tree-nodes.ts), the one list of tree kinds.
import type { AssistantBlock, AssistantItem, BashItem, BranchSummaryItem, CompactionItem, ConversationItem, CustomMessageItem, NoticeItem, ToolResultItem, UserItem } from '../protocol';

/** What every view has that its item does not, or has otherwise. */
interface ViewBase {
  /** the entry's id as stored (the item's `entryId` is its wire id) */
  id: string;
  parentId: string | null;
  /** as stored (ISO); the item carries ms since the epoch */
  timestamp: string;
  /** what had to be repaired to show the entry (wrong types, odd numbers or ids); reported as 'partly-shown' */
  problems?: string[];
}

/** An item's fields, unbounded, on the app's base. */
type ViewOf<Item extends { entryId: string; timestamp: number }> = Omit<Item, 'entryId' | 'timestamp'> & ViewBase;

/** A tool call of a reply and, once paired on the path, the entry holding its result. */
export interface ToolCallView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** the entry holding the result, once there is one on the path */
  resultEntryId?: string;
  isError?: boolean;
}

/** An assistant block as the entry holds it (the tool's traits are the chat's: chat-items.ts). */
export type ViewBlock = Extract<AssistantBlock, { type: 'text' | 'thinking' }> | Omit<Extract<AssistantBlock, { type: 'toolCall' }>, 'effect' | 'origin'>;

export type UserView = ViewOf<UserItem>;
export type AssistantView = Omit<ViewOf<AssistantItem>, 'blocks'> & {
  blocks: ViewBlock[];
  /** its tool calls, paired with their results along the path (view-model.ts) */
  toolCalls: ToolCallView[];
};
export type ToolResultView = ViewOf<ToolResultItem> & {
  /** the assistant entry whose call this answers */
  callEntryId?: string;
};
export type CompactionView = ViewOf<CompactionItem>;
export type BranchSummaryView = ViewOf<BranchSummaryItem>;
export type CustomMessageView = ViewOf<CustomMessageItem>;
export type BashView = ViewOf<BashItem>;
export type NoticeView = ViewOf<NoticeItem>;

export type ConversationEntry = UserView | AssistantView | ToolResultView | CompactionView | BranchSummaryView | CustomMessageView | BashView | NoticeView;
export type ConversationKind = ConversationEntry['kind'];

/** The variant of a kind. */
export type ViewOfKind<K extends ConversationKind> = Extract<ConversationEntry, { kind: K }>;

/** Every item kind has its view and no view lacks an item: a kind added to one side only fails to compile. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const VIEW_KINDS_MATCH_ITEMS: Same<ConversationKind, ConversationItem['kind']> = true;
