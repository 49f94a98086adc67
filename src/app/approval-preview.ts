// What a `write` or `edit` call would leave in the file, computed before it runs, so the user can review
// it in a diff editor before approving. Best effort: anything odd (escape, unreadable, no unique match)
// yields no preview and the approval simply goes without one; the tool itself reports real errors.
import { readFile } from 'node:fs/promises';
import { resolveInWorkspace, type WorkspaceRoots } from '../agent/tools';

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

export async function previewFileChange(
  toolName: string,
  args: Record<string, unknown>,
  workspace: WorkspaceRoots,
): Promise<FileChangePreview | undefined> {
  if (toolName !== 'write' && toolName !== 'edit') return undefined;
  const path = args.path;
  if (typeof path !== 'string' || path === '') return undefined;
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
  if (toolName === 'write') {
    if (typeof args.content !== 'string') return undefined;
    return { kind: 'fileChange', path, absolutePath, original, proposed: args.content, isNewFile };
  }
  if (isNewFile || typeof args.oldText !== 'string' || typeof args.newText !== 'string' || args.oldText === '') return undefined;
  const crlf = original.includes('\r\n');
  const content = crlf ? original.replace(/\r\n/g, '\n') : original;
  const oldText = args.oldText.replace(/\r\n/g, '\n');
  const newText = args.newText.replace(/\r\n/g, '\n');
  const at = content.indexOf(oldText);
  if (at === -1 || content.indexOf(oldText, at + 1) !== -1) return undefined;
  const updated = content.slice(0, at) + newText + content.slice(at + oldText.length);
  return { kind: 'fileChange', path, absolutePath, original, proposed: crlf ? updated.replace(/\n/g, '\r\n') : updated, isNewFile };
}
