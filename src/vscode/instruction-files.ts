// The chat's "Instructions: … · Skills: n" line, host side: which instruction files the chat's session
// follows (the user's global ones, each folder's root AGENTS.md, the nested ones its tool results added)
// and how many skills are listed; opening one of those files (only a listed one: the webview names it by
// path, and a path the state did not list is refused), and a pick of the files, skills and skill problems.
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { ProjectInstructions } from '../agent/instructions/project-instructions';
import type { ArborApp } from '../app/arbor-app';
import { LIMITS, type InstructionsInfo } from '../protocol';

interface ListedFile {
  label: string;
  path: string;
  scope: 'global' | 'root' | 'nested';
}

/** A global file outside the home folder is shown by its last two parts (the link's tooltip has the path). */
function shortLabel(display: string): string {
  if (!display.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(display)) return display;
  return `…/${display.split(/[\\/]/).slice(-2).join('/')}`;
}

function listedFiles(instructions: ProjectInstructions, app: ArborApp): ListedFile[] {
  const snapshot = instructions.current();
  const listed = snapshot.files.map((f): ListedFile => ({ label: shortLabel(f.display), path: f.absolute, scope: f.scope }));
  // the project's first (root, then nested), the user's global ones last: the line reads most specific first
  const files = listed.filter((f) => f.scope === 'root');
  const first = instructions.workspace.folders[0];
  for (const nested of app.session.nestedInstructionFiles()) {
    const folder = instructions.workspace.folders.find((f) => nested.startsWith(`${f.name}/`)) ?? first;
    if (!folder) continue;
    const rel = folder === first && instructions.workspace.folders.length === 1 ? nested : nested.slice(folder.name.length + 1);
    files.push({ label: nested, path: join(folder.path, rel), scope: 'nested' });
  }
  return [...files, ...listed.filter((f) => f.scope === 'global')].slice(0, LIMITS.list);
}

/** The line's content for the chat state; undefined when there is nothing to show. */
export function instructionsInfo(app: ArborApp): InstructionsInfo | undefined {
  const instructions = app.instructions;
  if (!instructions) return undefined;
  const files = listedFiles(instructions, app).map((f) => ({ label: f.label.slice(0, LIMITS.short), path: f.path.slice(0, LIMITS.medium), scope: f.scope }));
  const snapshot = instructions.current();
  const skills = snapshot.skills.filter((s) => !s.hidden).length;
  if (files.length === 0 && skills === 0 && snapshot.problems.length === 0) return undefined;
  return { files, skills, problems: snapshot.problems.length };
}

/** Opens `path` if the chat's line lists it; anything else is refused and logged. */
export async function openInstructionFile(app: ArborApp, path: string, log: (message: string) => void): Promise<void> {
  const instructions = app.instructions;
  const listed = instructions ? listedFiles(instructions, app).find((f) => f.path === path) : undefined;
  if (!listed) {
    log(`openInstructionFile: ${path} is not an instruction file this chat lists; not opened.`);
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(listed.path), { preview: true });
}

interface PickItem extends vscode.QuickPickItem {
  file?: string;
}

/** Where an instruction file applies, in the user's words (localized like every host string). */
function scopeWords(scope: 'global' | 'root' | 'nested'): string {
  if (scope === 'global') return vscode.l10n.t('yours, every project');
  if (scope === 'root') return vscode.l10n.t('the project');
  return vscode.l10n.t('added when the agent worked under its folder');
}

/**
 * A pick of everything the line summarises: the instruction files, the skills (name, description, where)
 * and the skill problems; the chosen file or SKILL.md opens.
 */
export async function showInstructions(app: ArborApp): Promise<void> {
  const instructions = app.instructions;
  if (!instructions) return;
  const snapshot = instructions.current();
  const items: PickItem[] = [{ label: vscode.l10n.t('Instruction files'), kind: vscode.QuickPickItemKind.Separator }];
  for (const f of listedFiles(instructions, app)) items.push({ label: `$(file) ${f.label}`, description: scopeWords(f.scope), detail: f.path, file: f.path });
  items.push({ label: vscode.l10n.t('Skills'), kind: vscode.QuickPickItemKind.Separator });
  for (const s of snapshot.skills) items.push({ label: `$(book) ${s.name}`, description: s.display, detail: s.description, file: join(s.folder, 'SKILL.md') });
  if (snapshot.problems.length > 0) {
    items.push({ label: vscode.l10n.t('Problems'), kind: vscode.QuickPickItemKind.Separator });
    for (const p of snapshot.problems) {
      items.push({ label: `$(${p.severity === 'error' ? 'error' : 'warning'}) ${p.path}`, detail: p.message });
    }
  }
  const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Instructions and skills'), matchOnDetail: true, placeHolder: vscode.l10n.t('What the agent follows, and the skills it can load (workspace first, then your own folders)') });
  if (chosen?.file) await vscode.window.showTextDocument(vscode.Uri.file(chosen.file), { preview: true });
}
