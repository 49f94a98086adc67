// "Problems after this edit": after a tool that writes files, the errors the language servers now report
// in those files and did not report before the call, appended to the tool's result so the agent sees the
// errors it caused without asking. Bounded: the host waits at most `timeoutMs` for the servers (a slow
// or absent one just means no note), and the note is capped. The tool loop calls this through
// ToolCallEnvironment.editFeedback (src/agent/tool-calls.ts); docs/architecture.md, "Editor knowledge".
import { renderPrompt } from '../../../core/prompts';
import { workspaceRootInfos } from '../paths';
import type { WorkspaceRoots } from '../types';
import { diagnosticLine, sortDiagnostics } from './format';
import type { EditorDiagnostic, EditorKnowledge } from './knowledge';

/** What the tool loop asks before a tool writes files: the returned function, after it, gives the note. */
export interface EditFeedback {
  before(paths: readonly string[]): Promise<(signal: AbortSignal) => Promise<string | undefined>>;
}

export interface EditFeedbackOptions {
  workspace: WorkspaceRoots;
  /** read at every call: `arbor.tools.diagnosticsAfterEdit` */
  enabled: () => boolean;
  /** longest wait for the language servers (default 1.5 s) */
  timeoutMs?: number;
  /** most errors listed (default 20) */
  maxErrors?: number;
}

export const AFTER_EDIT_TIMEOUT_MS = 1500;
const NO_NOTE = async () => undefined;

export function createEditFeedback(knowledge: EditorKnowledge, options: EditFeedbackOptions): EditFeedback {
  return {
    async before(paths) {
      if (!options.enabled() || paths.length === 0) return NO_NOTE;
      const earlier = knowledge.knownDiagnostics(paths).filter(isErrorIn(paths));
      return async (signal) => {
        const timeoutMs = options.timeoutMs ?? AFTER_EDIT_TIMEOUT_MS;
        const now = (await knowledge.settledDiagnostics(paths, { timeoutMs, signal })).filter(isErrorIn(paths));
        return noteOf(options, newErrors(earlier, now), now.length);
      };
    },
  };
}

function isErrorIn(paths: readonly string[]): (d: EditorDiagnostic) => boolean {
  const wanted = new Set(paths);
  return (d) => d.severity === 'error' && wanted.has(d.path);
}

/** The errors of `now` not in `earlier`, matched by file, message and code (an edit moves lines). */
export function newErrors(earlier: readonly EditorDiagnostic[], now: readonly EditorDiagnostic[]): EditorDiagnostic[] {
  const keyOf = (d: EditorDiagnostic) => `${d.path}\0${d.message}\0${d.code ?? ''}`;
  const remaining = new Map<string, number>();
  for (const d of earlier) remaining.set(keyOf(d), (remaining.get(keyOf(d)) ?? 0) + 1);
  return now.filter((d) => {
    const left = remaining.get(keyOf(d)) ?? 0;
    if (left > 0) remaining.set(keyOf(d), left - 1);
    return left === 0;
  });
}

async function noteOf(options: EditFeedbackOptions, fresh: EditorDiagnostic[], total: number): Promise<string | undefined> {
  if (fresh.length === 0) return undefined;
  const roots = await workspaceRootInfos(options.workspace);
  const max = options.maxErrors ?? 20;
  const lines = sortDiagnostics(fresh).slice(0, max).map((d) => diagnosticLine(roots, d));
  if (fresh.length > max) lines.push(`… ${fresh.length - max} more`);
  const older = total - fresh.length;
  return renderPrompt('system/problems-after-edit', {
    count: String(fresh.length),
    errors: fresh.length === 1 ? 'error' : 'errors',
    problems: lines.join('\n'),
    older: older > 0 ? `\n(${older} error${older === 1 ? ' that was' : 's that were'} there before this edit ${older === 1 ? 'remains' : 'remain'}.)` : '',
  }).trim();
}
