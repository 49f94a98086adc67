// Protocol pieces of file checkpoints (issue #15): the webview's switch dialog asks the host which files a
// switch would change (`previewFiles` → `filesPreview`), can open them as a diff (`showFileChanges`), and
// sends its choice with `navigate` (`files`). No `files` on a navigate: the host asks natively.
import { z } from 'zod';

const idSchema = z.string().min(1).max(256);
const keySchema = z.string().min(1).max(4096);
const keysSchema = z.array(keySchema).max(10_000);

/** the dialog's files choice: restore them (overwriting only the listed outside-changed and protected files the user ticked) or not */
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
  /** protected files (editor settings, git hooks, agent instructions, …): shown apart with a warning, restored only when ticked */
  protected: z.array(z.strictObject({ key: keySchema, rule: z.string().max(1000) })).max(10_000),
  /** files the switch cannot restore (not checkpointed, content gone, path refused), with the reason worded by the host */
  notRestorable: z.array(z.strictObject({ key: keySchema, reason: z.string().max(1000) })).max(10_000),
  /** the dialog's words, localized by the host (`{0}` in `more` is the number of files not listed) */
  text: z.strictObject({
    legend: z.string().max(200),
    restore: z.string().max(200),
    keep: z.string().max(200),
    show: z.string().max(200),
    summary: z.string().max(200),
    more: z.string().max(200),
    outside: z.string().max(500),
    protected: z.string().max(1000),
    notRestorable: z.string().max(500),
    restricted: z.string().max(500),
    added: z.string().max(100),
    modified: z.string().max(100),
    deleted: z.string().max(100),
  }),
});
export type FilesPreviewMessage = z.infer<typeof filesPreviewMessageSchema>;
