// `${input:id}`, `${env:NAME}` and `${workspaceFolder}` in a server's command, args, env, cwd, url and
// headers, as VS Code's mcp.json has them. The host resolves them: inputs are asked once (a password
// box) and kept in SecretStorage, so a secret never has to be written into a settings or repository file.
import type { InputSpec, ServerConfig } from './config';

export interface PlaceholderHost {
  env(name: string): string | undefined;
  workspaceFolder(): string | undefined;
  /** the answer for `${input:id}`; undefined: the user declined, the server does not start */
  input(id: string, spec: InputSpec | undefined, server: string): Promise<string | undefined>;
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; reason: string };

const PLACEHOLDER = /\$\{(input|env|workspaceFolder)(?::([^}]*))?\}/g;

/** The `${input:id}` ids a config uses, in order, each once. */
export function inputIdsOf(config: ServerConfig): string[] {
  const ids = new Set<string>();
  for (const text of stringsOf(config)) {
    for (const match of text.matchAll(PLACEHOLDER)) if (match[1] === 'input' && match[2]) ids.add(match[2]);
  }
  return [...ids];
}

function stringsOf(config: ServerConfig): string[] {
  if (config.type === 'stdio') {
    const env = Object.values(config.env ?? {}).filter((v): v is string => typeof v === 'string');
    return [config.command, ...(config.args ?? []), ...env, config.cwd ?? ''];
  }
  return [config.url, ...Object.values(config.headers ?? {})];
}

interface Scope {
  host: PlaceholderHost;
  inputs: readonly InputSpec[];
  answers: Map<string, string>;
  server: string;
}

async function resolveText(text: string, scope: Scope): Promise<Resolved<string>> {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const value = await valueOf(match[1], match[2] ?? '', scope);
    if (!value.ok) return value;
    out += text.slice(last, match.index) + value.value;
    last = (match.index ?? 0) + match[0].length;
  }
  return { ok: true, value: out + text.slice(last) };
}

async function valueOf(kind: string, arg: string, { host, inputs, answers, server }: Scope): Promise<Resolved<string>> {
  if (kind === 'env') return { ok: true, value: host.env(arg) ?? '' };
  if (kind === 'workspaceFolder') {
    const folder = host.workspaceFolder();
    return folder === undefined ? { ok: false, reason: '${workspaceFolder} is used but no folder is open' } : { ok: true, value: folder };
  }
  const known = answers.get(arg);
  if (known !== undefined) return { ok: true, value: known };
  const answer = await host.input(arg, inputs.find((i) => i.id === arg), server);
  if (answer === undefined) return { ok: false, reason: `no value was given for \${input:${arg}}` };
  answers.set(arg, answer);
  return { ok: true, value: answer };
}

async function resolveAll(texts: readonly string[], resolve: (t: string) => Promise<Resolved<string>>): Promise<Resolved<string[]>> {
  const out: string[] = [];
  for (const text of texts) {
    const r = await resolve(text);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}

async function resolveMap(map: Record<string, unknown> | undefined, resolve: (t: string) => Promise<Resolved<string>>): Promise<Resolved<Record<string, string> | undefined>> {
  if (!map) return { ok: true, value: undefined };
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map)) {
    if (value === null || value === undefined) continue;
    const r = await resolve(String(value));
    if (!r.ok) return r;
    out[key] = r.value;
  }
  return { ok: true, value: out };
}

/** The config with every placeholder replaced, or why it cannot start. */
export async function resolveConfig(config: ServerConfig, host: PlaceholderHost, inputs: readonly InputSpec[] = [], server = ''): Promise<Resolved<ServerConfig>> {
  const scope: Scope = { host, inputs, answers: new Map(), server };
  const resolve = (text: string) => resolveText(text, scope);
  if (config.type !== 'stdio') {
    const url = await resolve(config.url);
    const headers = await resolveMap(config.headers, resolve);
    if (!url.ok) return url;
    if (!headers.ok) return headers;
    return { ok: true, value: { ...config, url: url.value, headers: headers.value } };
  }
  const head = await resolveAll([config.command, config.cwd ?? ''], resolve);
  const args = await resolveAll(config.args ?? [], resolve);
  const env = await resolveMap(config.env, resolve);
  if (!head.ok) return head;
  if (!args.ok) return args;
  if (!env.ok) return env;
  return { ok: true, value: { ...config, command: head.value[0], cwd: head.value[1] || undefined, args: args.value, env: env.value } };
}
