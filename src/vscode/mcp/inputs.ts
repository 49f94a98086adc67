// `${input:id}` answers for MCP servers: asked once in a password box naming the server, kept in
// SecretStorage under a key that names the server's source and the server too, so an answer given to one
// server (say the user's own) is never handed to another (a repository's mcp.json using the same id).
import * as vscode from 'vscode';
import type { InputSpec } from '../../mcp/config';
import type { PlaceholderHost } from '../../mcp/placeholders';

const PREFIX = 'arbor.mcp.input/';

export class McpInputs {
  /** which source (user, or the workspace folder) each server name currently comes from */
  private readonly scopes = new Map<string, string>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  setScope(server: string, scope: string): void {
    this.scopes.set(server, scope);
  }

  private keyOf(server: string, id: string): string {
    return `${PREFIX}${this.scopes.get(server) ?? 'user'}/${server}/${id}`;
  }

  async answer(id: string, spec: InputSpec | undefined, server: string): Promise<string | undefined> {
    const key = this.keyOf(server, id);
    const stored = await this.secrets.get(key);
    if (stored !== undefined) return stored;
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('MCP server "{0}"', server),
      prompt: spec?.description ?? vscode.l10n.t('Value for ${input:{0}} (kept in VS Code\'s secret storage)', id),
      password: spec?.password ?? true,
      ignoreFocusOut: true,
    });
    if (value === undefined) return undefined;
    await this.secrets.store(key, value);
    return value;
  }

  /** Forgets every answer given for a server (its Forget Inputs action). */
  async forget(server: string, ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.secrets.delete(this.keyOf(server, id));
  }

  placeholders(): PlaceholderHost {
    return {
      env: (name) => process.env[name],
      workspaceFolder: () => vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath,
      input: (id, spec, server) => this.answer(id, spec, server),
    };
  }
}
