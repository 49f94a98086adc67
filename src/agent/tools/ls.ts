// `ls`: one folder's entries, sorted, folders marked with a trailing slash.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { holdFolder } from './confined-open';
import { resolveInWorkspace } from './paths';
import { DEFAULT_TOOL_LIMITS, ToolError, defineTool, limitsOf, type AgentTool } from './types';

export const lsArgs = z.object({
  path: z.string().optional().describe('Folder to list, relative to the workspace root (default: the root)'),
  limit: z.number().int().min(1).optional().describe('Maximum number of entries'),
});
export type LsArgs = z.infer<typeof lsArgs>;

export function createLsTool(): AgentTool<LsArgs> {
  return defineTool<LsArgs>({
    name: 'ls',
    description: renderPrompt('system/tools/ls', { defaultLimit: String(DEFAULT_TOOL_LIMITS.lsDefaultLimit) }),
    argsSchema: lsArgs,
    effect: { kind: 'readOnly' },
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await resolveInWorkspace(ctx.workspace, args.path ?? '.');
      const info = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') throw new ToolError(`Folder not found: ${target.display}.`);
        throw error;
      });
      if (!info.isDirectory()) throw new ToolError(`${target.display} is a file, not a folder. Use read to open it.`);
      // The folder is held open and listed through its descriptor: a swap for a symlink lists nothing outside.
      const folder = await holdFolder(target);
      let names: string[];
      try {
        const entries = await readdir(folder.cwd, { withFileTypes: true });
        names = await Promise.all(
          entries.map(async (entry) => {
            let isDir = entry.isDirectory();
            if (entry.isSymbolicLink()) isDir = await stat(join(folder.cwd, entry.name)).then((s) => s.isDirectory(), () => false);
            return isDir ? `${entry.name}/` : entry.name;
          }),
        );
      } finally {
        await folder.close();
      }
      names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || (a < b ? -1 : a > b ? 1 : 0));
      const limit = Math.min(args.limit ?? limits.lsDefaultLimit, limits.maxResultLimit);
      const shown = names.slice(0, limit);
      const details = { path: target.display, total: names.length, shown: shown.length };
      if (names.length === 0) return { content: [{ type: 'text', text: `(${target.display} is empty)` }], details, isError: false };
      let text = shown.join('\n');
      if (names.length > shown.length) {
        text += `\n\n[Showing ${shown.length} of ${names.length} entries. Pass a larger limit (up to ${limits.maxResultLimit}) or use find to see more.]`;
      }
      return { content: [{ type: 'text', text }], details, isError: false };
    },
  });
}
