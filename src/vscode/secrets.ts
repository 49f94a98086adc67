// API keys live only in VS Code's SecretStorage (OS keychain). Environment variables are a fallback for
// development. Keys are never logged, never put in settings, session files or webview messages.
import * as vscode from 'vscode';
import { chainKeyResolvers, envKeyResolver } from '../llm/keys';
import { keyedProviders } from '../llm/providers';
import type { KeyResolver } from '../llm/types';
import { Disposable } from './disposable';

/** Providers whose key may be stored (from the provider table): product names as they are, optional keys marked. */
export const KEY_PROVIDERS: readonly { id: string; readonly label: string }[] = keyedProviders().map((p) => ({
  id: p.id,
  get label() {
    return p.key === 'optional' ? vscode.l10n.t('{0} (optional key)', p.displayName) : p.displayName;
  },
}));

export function secretName(provider: string): string {
  return `arbor.apiKey.${provider}`;
}

export class SecretKeys extends Disposable implements KeyResolver {
  private readonly changeEmitter = this.register(new vscode.EventEmitter<string>());
  /** fires with the provider id when its key was stored or removed (also from another window) */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this.register(
      secrets.onDidChange((event) => {
        if (event.key.startsWith('arbor.apiKey.')) this.changeEmitter.fire(event.key.slice('arbor.apiKey.'.length));
      }),
    );
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

}

/** SecretStorage first, then each provider's environment variables (src/llm/keys.ts). */
export function hostKeyResolver(secrets: SecretKeys, env: Record<string, string | undefined> = process.env): KeyResolver {
  return chainKeyResolvers(secrets, envKeyResolver(env));
}
