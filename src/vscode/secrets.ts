// API keys live only in VS Code's SecretStorage (OS keychain). Environment variables are a fallback for
// development. Keys are never logged, never put in settings, session files or webview messages.
import * as vscode from 'vscode';
import { chainKeyResolvers, envKeyResolver } from '../llm/keys';
import type { KeyResolver } from '../llm/types';

/** Providers that take an API key (the local server and the demo model do not need one). */
export const KEY_PROVIDERS: readonly { id: string; readonly label: string }[] = [
  { id: 'openai', get label() { return vscode.l10n.t('OpenAI'); } },
  { id: 'anthropic', get label() { return vscode.l10n.t('Anthropic'); } },
  { id: 'local', get label() { return vscode.l10n.t('Local OpenAI-compatible server (optional key)'); } },
];

export function secretName(provider: string): string {
  return `arbor.apiKey.${provider}`;
}

export class SecretKeys implements KeyResolver {
  private readonly changeEmitter = new vscode.EventEmitter<string>();
  /** fires with the provider id when its key was stored or removed (also from another window) */
  readonly onDidChange = this.changeEmitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key.startsWith('arbor.apiKey.')) this.changeEmitter.fire(event.key.slice('arbor.apiKey.'.length));
    });
  }

  async getKey(provider: string): Promise<string | undefined> {
    const value = await this.secrets.get(secretName(provider));
    return value?.trim() ? value.trim() : undefined;
  }

  async hasKey(provider: string): Promise<boolean> {
    return (await this.getKey(provider)) !== undefined;
  }

  async setKey(provider: string, key: string): Promise<void> {
    await this.secrets.store(secretName(provider), key.trim());
  }

  async clearKey(provider: string): Promise<void> {
    await this.secrets.delete(secretName(provider));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}

/** SecretStorage first, then environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, ARBOR_<P>_API_KEY). */
export function hostKeyResolver(secrets: SecretKeys, env: Record<string, string | undefined> = process.env): KeyResolver {
  return chainKeyResolvers(secrets, envKeyResolver(env));
}
