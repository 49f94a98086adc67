// "Arbor: Export Session…": the root→current conversation as Markdown or HTML, to a file picked with a
// save dialog. From the Sessions view it exports that session's file (opened read-only). An existing
// target is backed up before it is replaced; a protected target (the shared file-write policy,
// src/agent/tools/write-policy.ts: `AGENTS.md`, `.vscode/`, git hooks, …) or one with several hard links is
// written only after a modal question. The renderers are the CLI's (`arbor-session export`).
import { errorText } from '../../core/error-text';
import { copyFile, stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import { WritePolicy } from '../../agent/tools/write-policy';
import { exportSession } from '../../cli/commands/export';
import { timestampForFileName } from '../../session/files';
import { SessionStore } from '../../session/store';
import type { SessionReader } from '../surfaces-types';
import { requireStore, type SurfaceDeps } from './surface-deps';

export const id = 'arbor.exportSession';

interface FormatItem extends vscode.QuickPickItem {
  format: 'md' | 'html';
}

function fileFrom(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  if (arg && typeof arg === 'object' && typeof (arg as { file?: unknown }).file === 'string') return (arg as { file: string }).file;
  return undefined;
}

async function backupIfExists(path: string): Promise<string | undefined> {
  try {
    await stat(path);
  } catch {
    return undefined;
  }
  const backup = `${path}.${timestampForFileName()}.bak`;
  await copyFile(path, backup);
  return backup;
}

/** Asks before exporting over a protected file or a hard link (the same rule as the tools' write); true: go on. */
async function confirmTarget(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme !== 'file') return true;
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
  const verdict = await new WritePolicy({ folders }).judge(uri.fsPath).catch(() => undefined);
  const reasons = [
    ...(verdict?.protected ? [vscode.l10n.t('It is a protected file ({0}): git, VS Code or an agent act on it.', verdict.protected.rule)] : []),
    ...(verdict && verdict.hardLinks > 1 ? [vscode.l10n.t('It has {0} hard links: the other paths would change too.', verdict.hardLinks)] : []),
  ];
  if (reasons.length === 0) return true;
  const replace = vscode.l10n.t('Export Anyway');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Export the session to {0}?', uri.fsPath), { modal: true, detail: reasons.join('\n') }, replace);
  return answer === replace;
}

/** The notice after an export, with Open (the exported file in an editor). */
async function offerOpen(uri: vscode.Uri): Promise<void> {
  const open = vscode.l10n.t('Open');
  const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Session exported to {0}.', uri.fsPath || uri.toString()), open);
  if (choice === open) await vscode.commands.executeCommand('vscode.open', uri);
}

export async function run(deps: SurfaceDeps, arg?: unknown, target?: vscode.Uri, formatArg?: 'md' | 'html'): Promise<vscode.Uri | undefined> {
  const file = fileFrom(arg);
  let store: SessionReader | undefined;
  try {
    store = file && file !== deps.app.store?.file ? await SessionStore.open(file) : requireStore(deps);
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not read the session: {0}', errorText(error)));
    return undefined;
  }
  if (!store) return undefined;
  let format = formatArg;
  if (!format) {
    const items: FormatItem[] = [
      { label: 'Markdown', description: '.md', format: 'md' },
      { label: 'HTML', description: '.html', format: 'html' },
    ];
    format = (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Export Session'), placeHolder: vscode.l10n.t('Format') }))?.format;
    if (!format) return undefined;
  }
  const name = (store.getSessionName() ?? `session-${store.header.id}`).replace(/[^\w.-]+/g, '-').slice(0, 60);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export Session'),
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `${name}.${format}`) } : {}),
      filters: format === 'md' ? { Markdown: ['md'] } : { HTML: ['html', 'htm'] },
    }));
  if (!uri || !(await confirmTarget(uri))) return undefined;
  try {
    const text = await exportSession(store, store.getLeafId(), format);
    const backup = uri.scheme === 'file' ? await backupIfExists(uri.fsPath) : undefined;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    deps.log.info(`exported ${store.file} to ${uri.toString()}${backup ? ` (previous file kept as ${backup})` : ''}`);
    void offerOpen(uri);
    return uri;
  } catch (error) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not export the session: {0}', errorText(error)));
    return undefined;
  }
}

export function register(deps: SurfaceDeps): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => run(deps, arg));
}
