// What an error offers the user besides its text: the fix that matches its kind, as typed actions the chat
// shows as buttons (Set API Key for a missing or refused key, Open Settings at the base URL when a server
// could not be reached). Decided here, from the provider table, so the webview never parses error text.
import { providerById } from '../llm/providers';
import type { ErrorAction } from '../protocol/messages';

const UNREACHABLE = new Set(['network', 'timeout']);

/** The actions for an error of `kind` from a request to `provider` (none when nothing would help). */
export function errorActions(kind: string | undefined, provider: string | undefined): ErrorAction[] {
  const descriptor = provider ? providerById(provider) : undefined;
  if (!descriptor || !kind) return [];
  if (kind === 'auth' && descriptor.key !== 'none') return [setApiKey(descriptor.id)];
  if (UNREACHABLE.has(kind) && descriptor.baseUrlSetting) return [{ kind: 'openSettings', setting: `arbor.providers.${descriptor.id}.baseUrl` }];
  return [];
}

/** Set API Key for one provider (also offered when a model without a key is chosen). */
export function setApiKey(provider: string): ErrorAction {
  return { kind: 'setApiKey', provider };
}
