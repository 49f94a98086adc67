// `write`: creates or replaces a whole file. The previous content travels in `details` so the UI can
// show a diff and undo the change. The file is opened once, confined (confined-open.ts), and the previous
// content is read through the same descriptor the new content is written to.
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { openConfinedForWrite, replaceContent } from './confined-open';
import { existsAsDirectory, previousTextOf } from './fileio';
import { pathTarget, refuseNewHardLinks, writeTarget } from './paths';
import { formatBytes } from './text';
import { ToolError, defineTool, limitsOf, throwIfAborted, type AgentTool } from './types';

export const writeArgs = z.object({
  path: z.string().describe('File to write, relative to the workspace root'),
  content: z.string().describe('The complete new content of the file'),
});
export type WriteArgs = z.infer<typeof writeArgs>;

export interface WriteDetails {
  path: string;
  /** null: the file did not exist; undefined: it existed but was binary or too large to keep */
  previousContent?: string | null;
  newContent: string;
  bytes: number;
}

export function createWriteTool(): AgentTool<WriteArgs> {
  return defineTool<WriteArgs>({
    name: 'write',
    description: renderPrompt('system/tools/write'),
    argsSchema: writeArgs,
    effect: { kind: 'writesFiles', targets: pathTarget, proposed: (args) => (typeof args.content === 'string' ? args.content : undefined) },
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await writeTarget(ctx, args.path);
      if (await existsAsDirectory(target.absolute)) throw new ToolError(`${target.display} is a folder; give a file path to write.`);
      throwIfAborted(ctx.signal);
      const { handle, stats, created } = await openConfinedForWrite(target);
      let previous: string | null | undefined;
      try {
        refuseNewHardLinks(ctx, args.path, stats, target.display);
        previous = created ? null : await previousTextOf(handle, stats.size, limits.diffMaxBytes);
        await replaceContent(handle, Buffer.from(args.content, 'utf8'));
      } finally {
        await handle.close();
      }
      const bytes = Buffer.byteLength(args.content);
      const what = previous === null ? 'Created' : 'Wrote';
      const details: WriteDetails = { path: target.display, newContent: args.content, bytes };
      if (previous !== undefined) details.previousContent = previous;
      return {
        content: [{ type: 'text', text: bytes < 1024 ? `${what} ${target.display} (${bytes} bytes).` : `${what} ${target.display} (${formatBytes(bytes)}).` }],
        details,
        isError: false,
      };
    },
  });
}
