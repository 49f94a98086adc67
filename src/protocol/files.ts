// Protocol pieces of file checkpoints (issue #15): the webview's switch dialog asks the host which files a
// switch would change (`previewFiles` → `filesPreview`), can open them as a diff (`showFileChanges`), and
// sends its choice with `navigate` (`files`). No `files` on a navigate: the host asks natively.
import { z } from 'zod';

const idSchema = z.string().min(1).max(256);
const keySchema = z.string().min(1).max(4096);
const keysSchema = z.array(keySchema).max(10_000);

/** the dialog's files choice: restore them (overwriting only the listed outside-changed files) or not */
export const navigateFilesSchema = z.strictObject({ restore: z.boolean(), overwrite: keysSchema });
export type NavigateFiles = z.infer<typeof navigateFilesSchema>;

export const previewFilesMessageSchema = z.strictObject({ type: z.literal('previewFiles'), targetId: idSchema });
export const showFileChangesMessageSchema = z.strictObject({ type: z.literal('showFileChanges'), targetId: idSchema });

/** what a switch to `targetId` would do to the files; `restorable: false` in Restricted Mode or when checkpoints are off */
export const filesPreviewMessageSchema = z.strictObject({
  type: z.literal('filesPreview'),
  targetId: idSchema,
  restorable: z.boolean(),
  /** the two points' file states differ: "Conversation and files" is the default */
  differ: z.boolean(),
  mode: z.enum(['ask', 'always', 'never']),
  changes: z.array(z.strictObject({ key: keySchema, change: z.enum(['added', 'modified', 'deleted']) })).max(10_000),
  /** files changed outside Arbor since Arbor last wrote them: overwritten only when ticked */
  outside: keysSchema,
  notRestorable: z.array(z.strictObject({ key: keySchema, reason: z.string().max(1000) })).max(10_000),
});
export type FilesPreviewMessage = z.infer<typeof filesPreviewMessageSchema>;
