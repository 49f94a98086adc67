// What a file-writing call (a tool whose effect is `writesFiles` with a `proposed` content: `write`,
// `edit`, or one from outside) would leave in the file, computed before it runs, so the user can review
// it in a diff editor before approving. Best effort: anything odd (escape, unreadable, no unique match)
// yields no preview and the approval simply goes without one; the tool itself reports real errors.
import { readFile } from 'node:fs/promises';
import { resolveInWorkspace, type AgentTool, type WorkspaceRoots } from '../agent/tools';

export interface FileChangePreview {
  kind: 'fileChange';
  /** the path as the model gave it */
  path: string;
  /** absolute path of the file */
  absolutePath: string;
  /** '' when the file does not exist yet */
  original: string;
  proposed: string;
  isNewFile: boolean;
}

/** The preview of an approval request if it is a file change (previews travel as `unknown`). */
export function asFileChange(preview: unknown): FileChangePreview | undefined {
  const candidate = preview as FileChangePreview | undefined;
  return candidate && candidate.kind === 'fileChange' && typeof candidate.proposed === 'string' && typeof candidate.original === 'string' ? candidate : undefined;
}

/** Whether the request's change can be reviewed in a diff editor. */
export function canDiff(request: { preview?: unknown }): boolean {
  return asFileChange(request.preview) !== undefined;
}

/**
 * The change a file-writing call would make, when its tool can say (`effect.proposed`) and it names one
 * file: whoever wrote the tool, the card and the diff editor show the same review.
 */
export async function previewFileChange(
  tool: Pick<AgentTool, 'effect'>,
  args: Record<string, unknown>,
  workspace: WorkspaceRoots,
): Promise<FileChangePreview | undefined> {
  const { effect } = tool;
  if (effect.kind !== 'writesFiles' || !effect.proposed) return undefined;
  const targets = effect.targets(args);
  const path = targets[0];
  if (targets.length !== 1 || typeof path !== 'string' || path === '') return undefined;
  let absolutePath: string;
  try {
    absolutePath = (await resolveInWorkspace(workspace, path)).absolute;
  } catch {
    return undefined;
  }
  let original = '';
  let isNewFile = false;
  try {
    original = await readFile(absolutePath, 'utf8');
  } catch {
    isNewFile = true;
  }
  const proposed = effect.proposed(args, original, isNewFile);
  return typeof proposed === 'string' ? { kind: 'fileChange', path, absolutePath, original, proposed, isNewFile } : undefined;
}
