// Preloaded with `node -r`: makes `require('vscode')` return a small working stand-in, enough for the
// extension's activate() to run to completion outside VS Code (bench/activation.mjs). Real behaviour where
// activation depends on it (Uri, EventEmitter, Disposable, configuration defaults from package.json,
// l10n.t formatting, a LogOutputChannel that keeps its lines); every other API is an inert callable stub.
const Module = require('node:module');
const { join } = require('node:path');
const { readFileSync } = require('node:fs');

const stubPath = require.resolve('./activation-vscode.cjs');
const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Anything not modelled below: callable, constructible, every property another stub, disposable. */
const inert = () =>
  new Proxy(function stub() {}, {
    get: (target, key) => (key === Symbol.toPrimitive ? () => '' : key === 'then' ? undefined : key === Symbol.iterator ? undefined : inert()),
    apply: () => inert(),
    construct: () => inert(),
  });
/** Answers every member with an inert stub: the prototype of the stubs below (see `partial`). */
const anyMember = new Proxy({}, { get: (target, key) => (key === 'then' || key === Symbol.toPrimitive || key === Symbol.iterator ? undefined : inert()) });
/**
 * An object with the given members; other members are inert stubs. The bundle reaches `vscode` through
 * esbuild's interop copy (own members copied onto an object made from the module's prototype), so unknown
 * members must also answer through the prototype: a new API the extension touches at load (an enum such
 * as DiagnosticSeverity) is then an inert stub instead of a crash.
 */
const partial = (members) =>
  new Proxy(members, {
    get: (target, key) => (key in target ? target[key] : key === 'then' ? undefined : inert()),
    getPrototypeOf: () => anyMember,
  });

class Uri {
  constructor(scheme, path) {
    this.scheme = scheme;
    this.path = path;
    this.authority = '';
    this.query = '';
    this.fragment = '';
  }
  get fsPath() {
    return this.path;
  }
  static file(path) {
    return new Uri('file', path);
  }
  static parse(value) {
    const m = /^([a-z][\w+.-]*):(?:\/\/)?(.*)$/i.exec(value);
    return m ? new Uri(m[1], m[2]) : new Uri('file', value);
  }
  static joinPath(base, ...parts) {
    return new Uri(base.scheme, join(base.path, ...parts));
  }
  with(change) {
    return new Uri(change.scheme ?? this.scheme, change.path ?? this.path);
  }
  toString() {
    return `${this.scheme}://${this.path}`;
  }
}

class Disposable {
  constructor(fn) {
    this.fn = fn;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((i) => i?.dispose?.()));
  }
  dispose() {
    this.fn?.();
    this.fn = undefined;
  }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg) => {
      const bound = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.add(bound);
      return new Disposable(() => this.listeners.delete(bound));
    };
  }
  fire(value) {
    for (const l of [...this.listeners]) l(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

const noEvent = () => new Disposable();

// Configuration: the defaults package.json contributes (what a fresh profile sees).
const defaults = {};
for (const section of [].concat(pkg.contributes.configuration ?? [])) {
  for (const [key, prop] of Object.entries(section.properties ?? {})) defaults[key] = prop.default;
}
function getConfiguration(section) {
  const full = (key) => (section ? `${section}.${key}` : key);
  const lookup = (key) => {
    const name = full(key);
    if (name in defaults) return defaults[name];
    // a section read as an object (e.g. getConfiguration('arbor').get('compaction'))
    const prefix = `${name}.`;
    const nested = Object.entries(defaults).filter(([k]) => k.startsWith(prefix));
    if (nested.length === 0) return undefined;
    const out = {};
    for (const [k, v] of nested) {
      const parts = k.slice(prefix.length).split('.');
      let node = out;
      for (const p of parts.slice(0, -1)) node = node[p] ??= {};
      node[parts.at(-1)] = v;
    }
    return out;
  };
  return partial({
    get: (key, fallback) => lookup(key) ?? fallback,
    has: (key) => lookup(key) !== undefined,
    inspect: (key) => ({ key: full(key), defaultValue: lookup(key) }),
    update: async () => {},
  });
}

function outputChannel(name) {
  const lines = [];
  const add = (level) => (message) => lines.push(`[${level}] ${message}`);
  return partial({
    name,
    lines,
    trace: add('trace'), debug: add('debug'), info: add('info'), warn: add('warn'), error: add('error'),
    append: (t) => lines.push(t), appendLine: (t) => lines.push(t), replace: () => {}, clear: () => {},
    show: () => {}, hide: () => {}, dispose: () => {},
    logLevel: 2,
    onDidChangeLogLevel: noEvent,
  });
}

const format = (message, ...args) => String(message).replace(/\{(\d+)\}/g, (m, i) => (args[i] !== undefined ? String(args[i]) : m));

const vscode = partial({
  Uri,
  Disposable,
  EventEmitter,
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  ThemeIcon: class ThemeIcon { constructor(id, color) { this.id = id; this.color = color; } },
  ThemeColor: class ThemeColor { constructor(id) { this.id = id; } },
  TreeItem: class TreeItem { constructor(label, state) { this.label = label; this.collapsibleState = state; } },
  MarkdownString: class MarkdownString { constructor(value = '') { this.value = value; } appendMarkdown(v) { this.value += v; return this; } appendText(v) { this.value += v; return this; } },
  CancellationTokenSource: class CancellationTokenSource { constructor() { this.token = { isCancellationRequested: false, onCancellationRequested: noEvent }; } cancel() { this.token.isCancellationRequested = true; } dispose() {} },
  l10n: partial({ t: (message, ...args) => format(typeof message === 'string' ? message : message.message, ...args), bundle: undefined, uri: undefined }),
  // appRoot: where VS Code keeps its bundled ripgrep (src/extension.ts); a folder without one is fine
  env: partial({ language: 'en', appName: 'bench', appRoot: join(root, '.vscode-test', 'no-app-root'), uiKind: 1, clipboard: partial({ readText: async () => '', writeText: async () => {} }) }),
  // the Language Model API (src/vscode/language-models.ts): no chat models in the bench
  lm: partial({ selectChatModels: async () => [], onDidChangeChatModels: noEvent }),
  workspace: partial({
    workspaceFolders: [{ uri: Uri.file(root), name: 'arbor', index: 0 }],
    isTrusted: true,
    getConfiguration,
    onDidChangeConfiguration: noEvent,
    onDidGrantWorkspaceTrust: noEvent,
    onDidChangeWorkspaceFolders: noEvent,
    getWorkspaceFolder: () => undefined,
    fs: partial({}),
  }),
  window: partial({
    createOutputChannel: (name) => outputChannel(name),
    registerWebviewViewProvider: () => new Disposable(),
    registerTreeDataProvider: () => new Disposable(),
    createTreeView: () => partial({ dispose() {}, onDidChangeSelection: noEvent, onDidChangeVisibility: noEvent, onDidExpandElement: noEvent, onDidCollapseElement: noEvent, visible: false, selection: [] }),
    createStatusBarItem: () => partial({ show() {}, hide() {}, dispose() {} }),
    onDidChangeActiveTextEditor: noEvent,
    onDidChangeWindowState: noEvent,
    onDidChangeTextEditorSelection: noEvent,
    activeTextEditor: undefined,
    state: { focused: true },
  }),
  commands: partial({
    registerCommand: () => new Disposable(),
    executeCommand: async () => undefined,
    getCommands: async () => [],
  }),
});

const original = Module._resolveFilename;
Module._resolveFilename = function resolve(request, ...rest) {
  return request === 'vscode' ? stubPath : original.call(this, request, ...rest);
};
require.cache[stubPath] = { id: stubPath, filename: stubPath, loaded: true, exports: vscode };

/** An ExtensionContext for activate(): real folders under `storage`, in-memory state and secrets. */
function memento() {
  const data = new Map();
  return { get: (k, d) => (data.has(k) ? data.get(k) : d), update: async (k, v) => void (v === undefined ? data.delete(k) : data.set(k, v)), keys: () => [...data.keys()], setKeysForSync() {} };
}
vscode.__createContext = (storage) => {
  const secrets = new Map();
  const secretChanged = new EventEmitter();
  return {
    subscriptions: [],
    extensionUri: Uri.file(root),
    extensionPath: root,
    extension: { id: 'arbor-dev.arbor', packageJSON: pkg, extensionUri: Uri.file(root), extensionPath: root },
    globalStorageUri: Uri.file(join(storage, 'global')),
    storageUri: Uri.file(join(storage, 'workspace')),
    logUri: Uri.file(join(storage, 'logs')),
    globalState: memento(),
    workspaceState: memento(),
    secrets: {
      get: async (k) => secrets.get(k),
      store: async (k, v) => { secrets.set(k, v); secretChanged.fire({ key: k }); },
      delete: async (k) => { secrets.delete(k); secretChanged.fire({ key: k }); },
      onDidChange: secretChanged.event,
    },
    environmentVariableCollection: inert(),
    extensionMode: 1,
    asAbsolutePath: (p) => join(root, p),
  };
};
