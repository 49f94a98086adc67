// `find`: files matching a glob under a folder, honouring .gitignore. Lists files with ripgrep when
// available (fast on large trees) or with the pure-Node walker; matching uses our own glob matcher
// in both cases so results do not depend on which one ran.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { renderPrompt } from '../../core/prompts';
import { holdFolder } from './confined-open';
import { compileGlob } from './glob';
import { resolveInWorkspace, workspaceRootInfos, displayPathSync } from './paths';
import { resolveRipgrep, runRipgrep, type RipgrepOption } from './ripgrep';
import { DEFAULT_TOOL_LIMITS, ToolError, defineTool, limitsOf, throwIfAborted, type AgentTool } from './types';
import { walkFiles } from './walk';

export const findArgs = z.object({
  pattern: z.string().min(1, 'pattern must not be empty').describe('Glob pattern, e.g. "*.ts" or "src/**/*.test.ts"'),
  path: z.string().optional().describe('Folder to search in, relative to the workspace root (default: the root)'),
  limit: z.number().int().min(1).optional().describe('Maximum number of results'),
});
export type FindArgs = z.infer<typeof findArgs>;

export const RG_COMMON_ARGS = ['--hidden', '--no-require-git', '--no-config', '-g', '!.git', '-g', '!node_modules'];

export function createFindTool(options: { ripgrep?: RipgrepOption } = {}): AgentTool<FindArgs> {
  return defineTool<FindArgs>({
    name: 'find',
    description: renderPrompt('system/tools/find', { defaultLimit: String(DEFAULT_TOOL_LIMITS.findDefaultLimit) }),
    argsSchema: findArgs,
    effect: { kind: 'readOnly' },
    async execute(args, ctx) {
      const limits = limitsOf(ctx);
      const target = await resolveInWorkspace(ctx.workspace, args.path ?? '.');
      const info = await stat(target.absolute).catch(() => undefined);
      if (!info) throw new ToolError(`Folder not found: ${target.display}.`);
      if (!info.isDirectory()) throw new ToolError(`${target.display} is a file, not a folder to search in.`);
      const matches = compileGlob(args.pattern);
      const limit = Math.min(args.limit ?? limits.findDefaultLimit, limits.maxResultLimit);
      const roots = await workspaceRootInfos(ctx.workspace);
      const root = roots.find((r) => r.folder === target.folder);
      const found: string[] = [];
      let more = false;
      const accept = (rel: string): boolean => {
        if (!matches(rel)) return true;
        if (found.length >= limit) {
          more = true;
          return false;
        }
        found.push(rel);
        return true;
      };
      const rg = resolveRipgrep(options.ripgrep);
      let usedRg = false;
      if (rg) {
        const folder = await holdFolder(target);
        try {
          const run = await runRipgrep(rg, ['--files', '--sort', 'path', ...RG_COMMON_ARGS], folder.cwd, ctx.signal, (line) =>
            accept(line.replace(/\\/g, '/').replace(/^\.\//, '')),
          );
          usedRg = run.exitCode === 0 || run.exitCode === 1 || run.stopped;
        } catch (error) {
          if (error instanceof ToolError) throw error;
          usedRg = false;
        } finally {
          await folder.close();
        }
        if (!usedRg) {
          found.length = 0;
          more = false;
        }
      }
      if (!usedRg) {
        for await (const rel of walkFiles(target.absolute, { root: root?.real, signal: ctx.signal })) {
          if (!accept(rel)) break;
        }
      }
      throwIfAborted(ctx.signal);
      found.sort();
      const shown = found.map((rel) => displayPathSync(roots, join(target.absolute, rel)));
      const details = { pattern: args.pattern, path: target.display, count: shown.length, truncated: more, engine: usedRg ? 'ripgrep' : 'node' };
      if (shown.length === 0) {
        return { content: [{ type: 'text', text: `No files matching "${args.pattern}" under ${target.display}.` }], details, isError: false };
      }
      let text = shown.join('\n');
      if (more) text += `\n\n[Stopped at ${limit} results. Use a more specific pattern or path, or a larger limit, to see more.]`;
      return { content: [{ type: 'text', text }], details, isError: false };
    },
  });
}
