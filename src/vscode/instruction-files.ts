// The chat's "Instructions: … · Skills: n" line, host side: which instruction files the chat's session
// follows (the user's global ones, each folder's root AGENTS.md, the nested ones its tool results added)
// and how many skills are listed; opening one of those files (only a listed one: the webview names it by
// path, and a path the state did not list is refused), and the skills pick with their problems.
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

function listedFiles(instructions: ProjectInstructions, app: ArborApp): ListedFile[] {
  const snapshot = instructions.current();
  const files: ListedFile[] = snapshot.files.map((f) => ({ label: f.display, path: f.absolute, scope: f.scope }));
  const first = instructions.workspace.folders[0];
  for (const nested of app.nestedInstructionFiles()) {
    const folder = instructions.workspace.folders.find((f) => nested.startsWith(`${f.name}/`)) ?? first;
    if (!folder) continue;
    const rel = folder === first && instructions.workspace.folders.length === 1 ? nested : nested.slice(folder.name.length + 1);
    files.push({ label: nested, path: join(folder.path, rel), scope: 'nested' });
  }
  return files.slice(0, LIMITS.list);
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

interface SkillItem extends vscode.QuickPickItem {
  file?: string;
}

/** A pick of the skills (name, description, where) and the skill problems; the chosen SKILL.md opens. */
export async function showSkills(app: ArborApp): Promise<void> {
  const instructions = app.instructions;
  if (!instructions) return;
  const snapshot = instructions.current();
  const items: SkillItem[] = snapshot.skills.map((s) => ({
    label: s.name,
    description: s.display,
    detail: s.description,
    file: join(s.folder, 'SKILL.md'),
  }));
  if (snapshot.problems.length > 0) {
    items.push({ label: vscode.l10n.t('Problems'), kind: vscode.QuickPickItemKind.Separator });
    for (const p of snapshot.problems) {
      items.push({ label: `$(${p.severity === 'error' ? 'error' : 'warning'}) ${p.path}`, detail: p.message });
    }
  }
  const chosen = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Agent Skills'), matchOnDetail: true, placeHolder: vscode.l10n.t('Skills the agent can load (workspace first, then your own folders)') });
  if (chosen?.file) await vscode.window.showTextDocument(vscode.Uri.file(chosen.file), { preview: true });
}
