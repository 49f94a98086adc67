// Security: the Content-Security-Policy of every webview Arbor creates. There is one, the chat view
// (`arbor.chat`, the only registerWebviewViewProvider / webview.html assignment in src/, checked below).
// Its HTML is rendered exactly as the host does (ChatViewProvider.resolveWebviewView with a fake webview
// view), with a small stand-in for the `vscode` module: only Uri, EventEmitter and Disposable are used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import { isAbsolute, join, relative, sep } from 'node:path';
import { reportFigures } from './profile';

const root = join(__dirname, '../..');

// ---- a minimal `vscode` (what webview-html.ts and chat-view.ts touch at construction/resolve time) ----
class FakeUri {
  constructor(readonly scheme: string, readonly path: string) {}
  get fsPath(): string {
    return this.path;
  }
  static file(path: string): FakeUri {
    return new FakeUri('file', path);
  }
  static joinPath(base: FakeUri, ...parts: string[]): FakeUri {
    return new FakeUri(base.scheme, join(base.path, ...parts));
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}
class FakeEventEmitter<T> {
  private listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const l of this.listeners) l(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}
/** What vscode.l10n.t answers; English unless a test installs a translation. */
let translation: (message: string, ...args: string[]) => string = (message) => message;
const fakeVscode = {
  Uri: FakeUri,
  l10n: { t: (message: string, ...args: string[]) => translation(message, ...args) },
  env: { language: 'en' },
  EventEmitter: FakeEventEmitter,
  Disposable: { from: (...items: { dispose(): unknown }[]) => ({ dispose: () => items.forEach((i) => i.dispose()) }) },
};
const moduleApi = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleApi._load;
moduleApi._load = function load(request: string, ...rest: unknown[]) {
  return request === 'vscode' ? fakeVscode : originalLoad.call(this, request, ...rest);
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const html = require('../../src/vscode/webview-html') as typeof import('../../src/vscode/webview-html');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ChatViewProvider } = require('../../src/vscode/chat-view') as typeof import('../../src/vscode/chat-view');

const extensionUri = FakeUri.file(root);
const CSP_SOURCE = 'https://*.vscode-cdn.net';

/** What VS Code's webview object offers the renderer: cspSource and asWebviewUri. */
function fakeWebview() {
  return {
    cspSource: CSP_SOURCE,
    options: {} as { enableScripts?: boolean; localResourceRoots?: FakeUri[] },
    html: '',
    asWebviewUri: (uri: FakeUri) => new FakeUri('https', `file+.vscode-resource.vscode-cdn.net${uri.path}`),
    onDidReceiveMessage: () => ({ dispose() {} }),
    postMessage: async () => true,
  };
}

/** Resolves a real ChatViewProvider into a fake view, exactly the code path VS Code takes. */
function resolveChatView() {
  const webview = fakeWebview();
  const view = { webview, onDidDispose: () => ({ dispose() {} }), visible: true };
  const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const provider = new ChatViewProvider({
    extensionUri: extensionUri as never,
    log: silent,
    getState: () => ({}) as never,
    showSessionTree: async () => undefined,
  });
  provider.resolveWebviewView(view as never);
  provider.dispose();
  return webview;
}

interface Parsed {
  policy: Map<string, string[]>;
  scripts: { attrs: string; nonce: string | undefined; src: string | undefined; inline: string }[];
  cspMetaCount: number;
}

function parse(page: string): Parsed {
  const metas = [...page.matchAll(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/gi)];
  const policy = new Map<string, string[]>();
  for (const directive of (metas[0]?.[1] ?? '').split(';')) {
    const [name, ...values] = directive.trim().split(/\s+/);
    if (name) policy.set(name.toLowerCase(), values);
  }
  const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)].map((m) => ({
    attrs: m[1]!,
    nonce: /\bnonce="([^"]*)"/.exec(m[1]!)?.[1],
    src: /\bsrc="([^"]*)"/.exec(m[1]!)?.[1],
    inline: m[2]!,
  }));
  return { policy, scripts, cspMetaCount: metas.length };
}

/** Every nonce the policy allows. */
function policyNonces(policy: Map<string, string[]>): string[] {
  return (policy.get('script-src') ?? []).map((v) => /^'nonce-([^']+)'$/.exec(v)?.[1]).filter((n): n is string => n !== undefined);
}

function nonceBits(nonce: string): number {
  // base64 / base64url carry 6 bits per character; hex 4
  return /^[0-9a-f]+$/i.test(nonce) ? nonce.length * 4 : Math.floor(nonce.replace(/=+$/, '').length * 6);
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full, suffix) : full.endsWith(suffix) ? [full] : [];
  });
}

// Every place that creates a webview or gives one HTML. A new one must be added here on purpose, after
// checking that it renders through renderChatHtml (the strict CSP below) and binds through the chat
// controller (which sets enableScripts and the local resource roots checked below).
const KNOWN_WEBVIEW_SITES = [
  `src${sep}extension.ts:registerWebviewViewProvider\\s*\\(`,
  `src${sep}vscode${sep}chat-controller.ts:\\.html\\s*=[^=]`,
  `src${sep}vscode${sep}chat-panels.ts:createWebviewPanel\\s*\\(`,
  `src${sep}vscode${sep}chat-panels.ts:registerWebviewPanelSerializer\\s*\\(`,
  `src${sep}vscode${sep}tree-tabs.ts:createWebviewPanel\\s*\\(`,
  `src${sep}vscode${sep}tree-tabs.ts:registerWebviewPanelSerializer\\s*\\(`,
  `src${sep}vscode${sep}tree-tabs.ts:\\.html\\s*=[^=]`,
];

test('webviews are created only at the known sites, and every HTML they get is renderChatHtml', () => {
  const creators: string[] = [];
  const htmlAssignments: string[] = [];
  for (const file of filesUnder(join(root, 'src'), '.ts')) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of [/createWebviewPanel\s*\(/g, /registerWebviewViewProvider\s*\(/g, /registerWebviewPanelSerializer\s*\(/g, /\.html\s*=[^=]/g, /registerCustomEditorProvider\s*\(/g]) {
      for (const _ of text.matchAll(pattern)) creators.push(`${relative(root, file)}:${pattern.source}`);
    }
    for (const m of text.matchAll(/\.html\s*=(?!=)([^;]*)/g)) htmlAssignments.push(`${relative(root, file)}: ${m[1]!.trim()}`);
  }
  assert.deepEqual(creators.sort(), [...KNOWN_WEBVIEW_SITES].sort(), 'a new webview must be added to this scan');
  assert.ok(htmlAssignments.length > 0);
  for (const assignment of htmlAssignments) assert.match(assignment, /: renderChatHtml\(/, `HTML not from renderChatHtml: ${assignment}`);
});

test('chat webview: strict CSP with default-src none, nonce-only scripts, every <script> carries the nonce', () => {
  const webview = resolveChatView();
  assert.ok(webview.html.length > 0, 'resolveWebviewView set the HTML');
  assertStrictPage(webview.html);
});

test('webview strings: a hostile translation stays inside the data-strings attribute and comes back whole', () => {
  const hostile = '"><script>alert(1)</script><div a=\'&amp;';
  translation = (message, ...args) => (message === 'Retry' ? hostile : message === 'Label: {0}' ? `Étiquette : ${args[0]}` : message);
  try {
    const page = html.renderChatHtml(fakeWebview() as never, extensionUri as never);
    assertStrictPage(page);
    assert.equal(parse(page).scripts.length, 2, 'no script element came from a translation');
    const attribute = /data-strings="([^"]*)"/.exec(page)?.[1] ?? '';
    const decoded = attribute.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    assert.deepEqual(JSON.parse(decoded), { Retry: hostile, 'Label: {0}': 'Étiquette : {0}' }, 'only the translated strings, placeholders kept');
  } finally {
    translation = (message) => message;
  }
  assert.match(html.renderChatHtml(fakeWebview() as never, extensionUri as never), /data-strings="\{\}"/, 'English: an empty bundle');
});

test('Conversation Tree tab: the same strict CSP as the chat', () => {
  const page = html.renderChatHtml(fakeWebview() as never, extensionUri as never, undefined, 'tree');
  assert.match(page, /data-view="tree"/);
  assertStrictPage(page);
});

function assertStrictPage(page: string): void {
  const { policy, scripts, cspMetaCount } = parse(page);
  assert.equal(cspMetaCount, 1, 'exactly one CSP meta tag');
  // the CSP meta must come before anything that loads (a later meta does not cover earlier elements)
  const metaAt = page.search(/<meta\s+http-equiv="Content-Security-Policy"/i);
  const firstLoad = page.search(/<(script|link|img|style)\b/i);
  assert.ok(metaAt >= 0 && metaAt < firstLoad, 'the CSP meta precedes every script, stylesheet and image');
  assert.deepEqual(policy.get('default-src'), [`'none'`]);
  assert.ok(!/unsafe-eval/i.test(page), 'no unsafe-eval anywhere in the page');
  assert.ok(!/wasm-unsafe-eval|unsafe-hashes|strict-dynamic/i.test(page), 'no other script relaxations');
  // script-src: exactly one source, the nonce; no host, scheme, wildcard, 'self' or 'unsafe-inline'
  const scriptSrc = policy.get('script-src') ?? [];
  assert.equal(scriptSrc.length, 1, `script-src is nonce-only, got ${scriptSrc.join(' ')}`);
  const [nonce] = policyNonces(policy);
  assert.ok(nonce, 'script-src has a nonce');
  assert.ok(nonceBits(nonce) >= 128, `nonce has ${nonceBits(nonce)} bits (≥ 128)`);
  assert.ok(!policy.has('script-src-elem') && !policy.has('script-src-attr'), 'no separate (looser) script-src-elem/-attr');
  // every script element carries that nonce, loads a file from the extension's webview build, and has no inline code
  assert.ok(scripts.length >= 1, 'the page loads its scripts');
  for (const script of scripts) {
    assert.equal(script.nonce, nonce, `script ${script.attrs.trim()} carries the nonce`);
    assert.equal(script.inline.trim(), '', 'no inline script code');
    assert.ok(script.src?.startsWith('https://file+.vscode-resource.vscode-cdn.net'), `script ${script.src} comes through asWebviewUri`);
    const onDisk = script.src!.slice('https://file+.vscode-resource.vscode-cdn.net'.length);
    assert.ok(onDisk.startsWith(join(root, 'dist', 'webview') + sep), `script ${onDisk} is from dist/webview`);
  }
  // no event-handler attributes or javascript: URLs (they would need 'unsafe-inline' / unsafe-hashes)
  assert.ok(!/\son[a-z]+\s*=/i.test(page), 'no inline event handlers');
  assert.ok(!/javascript:/i.test(page), 'no javascript: URLs');
  // other resource types only from the webview resource origin (styles may be inline: see docs/architecture.md)
  for (const [directive, values] of policy) {
    if (directive === 'default-src' || directive === 'script-src') continue;
    for (const value of values) {
      assert.ok([CSP_SOURCE, `'unsafe-inline'`, 'data:'].includes(value), `${directive} ${value} is allowed`);
      if (value === `'unsafe-inline'`) assert.equal(directive, 'style-src', 'unsafe-inline only for styles');
      if (value === 'data:') assert.equal(directive, 'img-src', 'data: only for images');
    }
  }
  assert.ok(!policy.has('connect-src') && !policy.has('frame-src') && !policy.has('child-src'), 'no network, frames or workers');
}

test('chat webview: the nonce is fresh per render (1,000 renders, all distinct)', () => {
  const nonces = new Set<string>();
  const renders = 1000;
  for (let i = 0; i < renders; i++) {
    const page = html.renderChatHtml(fakeWebview() as never, extensionUri as never);
    const { policy, scripts } = parse(page);
    const [nonce] = policyNonces(policy);
    assert.ok(nonce && scripts.every((s) => s.nonce === nonce));
    nonces.add(nonce);
  }
  assert.equal(nonces.size, renders, 'no nonce repeats');
  // and resolving the view twice (VS Code re-resolves after the view was disposed) gives two nonces
  const a = policyNonces(parse(resolveChatView().html).policy)[0];
  const b = policyNonces(parse(resolveChatView().html).policy)[0];
  assert.notEqual(a, b);
  reportFigures('csp-scan', { renders, distinctNonces: nonces.size, nonceBits: nonceBits(a!) });
});

test('chat webview: scripts enabled, local resources limited to dist/webview and media inside the extension', () => {
  const webview = resolveChatView();
  assert.equal(webview.options.enableScripts, true);
  const roots = (webview.options.localResourceRoots ?? []).map((uri) => uri.fsPath);
  assert.deepEqual(roots.map((r) => relative(root, r)).sort(), [join('dist', 'webview'), 'media'].sort());
  for (const r of roots) {
    assert.ok(isAbsolute(r) && r.startsWith(root + sep), `${r} is inside the extension`);
    assert.ok(existsSync(r) || r.endsWith(join('dist', 'webview')), `${r} exists (dist/ after a build)`);
  }
  // the webview-html helper agrees with what the view sets
  assert.deepEqual(html.webviewResourceRoots(extensionUri as never).map((u) => (u as unknown as FakeUri).fsPath), roots);
});

test('the shipped webview scripts contain no eval or new Function (nothing the CSP would block)', (t) => {
  const dir = join(root, 'dist', 'webview');
  if (!existsSync(join(dir, 'main.js'))) {
    // dist/ is a build output; the HTML checks above do not depend on it. Say so instead of passing silently.
    t.diagnostic('dist/webview/main.js missing (run npm run build): bundle check not run');
    assert.ok(!existsSync(join(root, 'dist', 'extension.js')), 'a build without the webview bundle is broken');
    return;
  }
  const scripts = filesUnder(dir, '.js');
  assert.ok(scripts.length >= 2, 'main.js and the toolkit');
  for (const file of scripts) {
    // The toolkit (FAST) has a globalThis polyfill whose last resort is `new Function("return this")`
    // inside try/catch, after `typeof globalThis` succeeds in every webview: unreachable, and harmless if reached
    // (the CSP throws, the catch returns {}). That exact fallback is the only exception.
    const polyfill = /"undefined"!=typeof globalThis\)return globalThis;[^]{0,200}?try\{return new Function\("return this"\)\(\)\}catch\(\w+\)\{return\{\}\}/g;
    const text = readFileSync(file, 'utf8').replace(polyfill, '');
    assert.ok(!/(^|[^\w$.])eval\s*\(/.test(text), `${relative(root, file)} calls eval`);
    assert.ok(!/new\s+Function\s*\(/.test(text), `${relative(root, file)} uses new Function`);
  }
  // zod would compile validators with new Function unless told not to; the webview configures it jitless
  assert.match(readFileSync(join(root, 'webview', 'zod-config.ts'), 'utf8'), /jitless:\s*true/);
});
