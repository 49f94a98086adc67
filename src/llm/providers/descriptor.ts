// What Arbor knows about one provider, in one place: every consumer (registry, keys, overflow wordings,
// settings, secrets, automatic model choice, build) reads the table in ./index.ts instead of naming
// providers itself, so a new provider is one file here plus its line in that table, and its implementation's
// line in ../provider-factories.ts (data apart from code, so the implementations may read this table).
import type { ModelInfo, ProviderApi } from '../types';

/** Whether requests need a stored API key: 'optional' = sent when set (a local server), else none. */
export type KeyNeed = 'required' | 'optional' | 'none';

export interface ProviderDescriptor<Id extends string = string> {
  /** provider id, as in `provider/model` and `arbor.apiKey.<id>` */
  readonly id: Id;
  /** shown in pickers (a product name, not translated) */
  readonly displayName: string;
  /** the wire API this provider's models use unless a model says otherwise */
  readonly api: ProviderApi;
  /** other wire APIs this provider's factory (../provider-factories.ts) also implements (a model's `api` picks one) */
  readonly alsoServes?: readonly ProviderApi[];
  /** where requests go when neither the model nor `arbor.providers.<id>.baseUrl` says otherwise */
  readonly defaultBaseUrl?: string;
  readonly key: KeyNeed;
  /** environment variables tried for the key (after SecretStorage), first set wins */
  readonly keyEnvNames: readonly string[];
  /** this provider's own wordings of "the prompt does not fit" (src/llm/overflow.ts adds shared ones) */
  readonly overflowWordings: readonly RegExp[];
  /** the SDK loaded on first request, built into dist/vendor/<chunk>.js (scripts/build.mjs) */
  readonly sdk?: { readonly module: string; readonly chunk: string };
  /** `arbor.providers.<id>.baseUrl` exists (contributed in package.json, machine scoped) */
  readonly baseUrlSetting: boolean;
  /** automatic model choice tries providers with a rank in ascending order (when usable) */
  readonly autoPickRank?: number;
  /** estimates standing in for this provider's tokenizer are multiplied by this (default 1) */
  readonly estimateMargin?: number;
  readonly models: readonly ModelInfo[];
}

export const FREE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } as const;
