// `write`: creates or replaces a whole file. The previous content travels in `details` so the UI can
// show a diff and undo the change.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { existsAsDirectory, previousText } from './fileio';
import { resolveInWorkspace } from './paths';
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
    mutating: true,
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await resolveInWorkspace(ctx.workspace, args.path);
      if (await existsAsDirectory(target.absolute)) throw new ToolError(`${target.display} is a folder; give a file path to write.`);
      let previous: string | null | undefined;
      try {
        previous = await previousText(target.absolute, limits.diffMaxBytes);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
          throw new ToolError(`Cannot write ${target.display}: a parent of it is a file, not a folder.`);
        }
        throw error;
      }
      throwIfAborted(ctx.signal);
      try {
        await mkdir(dirname(target.absolute), { recursive: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || code === 'ENOTDIR') {
          throw new ToolError(`Cannot write ${target.display}: a parent of it is a file, not a folder.`);
        }
        throw error;
      }
      await writeFile(target.absolute, args.content, 'utf8');
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
