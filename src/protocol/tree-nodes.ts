// The session tree's nodes as the webview's tree shows them. Part of the one protocol that messages.ts exports.
import { z } from 'zod';
import { countSchema, idSchema, labelSchema, shortSchema, timestampSchema } from './protocol-primitives';

export const treeNodeKindSchema = z.enum([
  'user',
  'assistant',
  'toolResult',
  'compaction',
  'branch_summary',
  'custom_message',
  'bash',
  'model_change',
  'thinking_level_change',
  'label',
  'session_info',
  'custom',
  'other',
]);
export type TreeNodeKind = z.infer<typeof treeNodeKindSchema>;

export const treeNodeSchema = z.strictObject({
  id: idSchema,
  parentId: idSchema.nullable(),
  kind: treeNodeKindSchema,
  /** first line of the entry's text, trimmed (host truncates to LIMITS.short) */
  preview: shortSchema,
  label: labelSchema.optional(),
  /** pinned on the active path */
  pinned: z.boolean().optional(),
  /** on the path from the root to the current leaf */
  onActivePath: z.boolean(),
  /** this node IS the session's current leaf (the position new messages attach to) */
  isLeaf: z.boolean(),
  childCount: countSchema,
  timestamp: timestampSchema,
  /** files the reply's turn changed: how many, and "3 files changed" for the tooltip */
  files: z.strictObject({ count: countSchema, text: shortSchema }).optional(),
});
export type TreeNode = z.infer<typeof treeNodeSchema>;
