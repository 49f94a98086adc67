// Serves the built chat webview (dist/webview) on 127.0.0.1 with a stub acquireVsCodeApi, so the panel
// can be loaded in plain Chromium without VS Code: benchmarks and standalone UI checks. The stub answers
// `ready` with the host messages given to the page (window.__arborStub.script) and records every message
// the webview posts in window.__arborStub.posted.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist', 'webview');

/** A few VS Code dark-theme variables so the stub page looks like the panel. */
const THEME = `
:root{--vscode-foreground:#cccccc;--vscode-sideBar-background:#181818;--vscode-editor-background:#1f1f1f;
--vscode-font-family:system-ui,sans-serif;--vscode-font-size:13px;--vscode-font-weight:normal;
--vscode-descriptionForeground:#9d9d9d;--vscode-textLink-foreground:#4daafc;--vscode-button-background:#0078d4;
--vscode-button-foreground:#fff;--vscode-badge-background:#616161;--vscode-badge-foreground:#f8f8f8;
--vscode-panel-border:#2b2b2b;--vscode-editorWidget-background:#202020;--vscode-textCodeBlock-background:#2b2b2b;
--vscode-focusBorder:#0078d4;--vscode-editor-font-family:monospace;--vscode-list-inactiveSelectionBackground:#37373d;
--vscode-list-hoverBackground:#2a2d2e;--vscode-errorForeground:#f85149;--vscode-inputValidation-warningBackground:#352a05;
--vscode-inputValidation-warningBorder:#b89500;--vscode-inputValidation-infoBackground:#063b49;--vscode-inputValidation-infoBorder:#1b81a8;
--vscode-progressBar-background:#0078d4;--vscode-charts-purple:#b180d7;--vscode-charts-green:#89d185;}`;

/** `view: 'tree'` loads the Conversation Tree tab's page (the same bundle, webview/render/tree-page.ts). */
export function stubPage({ withApp = true, view = 'chat' } = {}) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<style>${THEME}</style>
<link rel="stylesheet" href="/main.css">
<link rel="stylesheet" href="/tree-graph.css">
<script type="module" src="/toolkit.min.js"></script>
<script src="/stub.js"></script>
${withApp ? '<script defer src="/main.js"></script>' : '<script defer src="/baseline.js"></script>'}
</head><body><div id="app" data-status="loading" data-view="${view}"></div></body></html>`;
}

// The stub runs before main.js. Host messages come from window.__arborScript (set by the test through
// /script.json) and are delivered after `ready`, timed: __arborStub.delivered / painted.
const STUB = `
window.__arborStub = { posted: [], state: undefined };
window.acquireVsCodeApi = () => ({
  postMessage(message) {
    window.__arborStub.posted.push(message);
    if (message && message.type === 'ready') {
      fetch('/script.json').then((r) => r.json()).then((script) => {
        const t0 = performance.now();
        for (const m of script) window.postMessage(m, '*');
        // the webview handles the messages in order; two frames later the result is on screen
        let seen = 0;
        window.addEventListener('message', function last() {
          if (++seen < script.length) return;
          window.removeEventListener('message', last);
          requestAnimationFrame(() => requestAnimationFrame(() => {
            window.__arborStub.painted = performance.now() - t0;
          }));
        });
      });
    }
  },
  getState() { return window.__arborStub.state; },
  setState(s) { window.__arborStub.state = s; },
});`;

// Baseline: the floor for showing the same messages, receive them and paint one line of text per
// message-free page (no validation, no Markdown, no layout of messages).
const BASELINE = `
const api = acquireVsCodeApi();
window.addEventListener('message', (e) => { if (e.data && e.data.type === 'conversation') document.getElementById('app').textContent = e.data.items.length + ' messages'; });
api.postMessage({ type: 'ready', protocolVersion: 2 });`;

/**
 * Serves a snapshot of dist/webview (copied now: other builds in the same checkout may rewrite dist
 * while a run is going on).
 */
export async function startStubServer() {
  const files = new Map(['main.js', 'main.css', 'tree-graph.css', 'toolkit.min.js'].map((name) => [name, readFileSync(join(dist, name))]));
  let script = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (type, body) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/' || url.pathname === '/index.html') return send('text/html', stubPage());
    if (url.pathname === '/tree.html') return send('text/html', stubPage({ view: 'tree' }));
    if (url.pathname === '/baseline.html') return send('text/html', stubPage({ withApp: false }));
    if (url.pathname === '/stub.js') return send('text/javascript', STUB);
    if (url.pathname === '/baseline.js') return send('text/javascript', BASELINE);
    if (url.pathname === '/script.json') return send('application/json', JSON.stringify(script));
    const name = url.pathname.slice(1);
    const body = files.get(name);
    if (!body) {
      res.writeHead(404);
      return res.end();
    }
    send(name.endsWith('.css') ? 'text/css' : 'text/javascript', body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    setScript(messages) {
      script = messages;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A conversation snapshot of `count` items with text, code, tool calls and a compaction every 1,000. */
export function makeConversation(count) {
  const items = [];
  const nodes = [];
  let parent = null;
  let ts = Date.UTC(2025, 0, 1);
  for (let i = 0; i < count; i++) {
    const id = `e${i.toString(16).padStart(6, '0')}`;
    ts += 1000;
    let item;
    if (i > 0 && i % 1000 === 0) {
      item = {
        kind: 'compaction', entryId: id, timestamp: ts, summary: `## Goal\nKeep going with step ${i}.\n\n## Done\n- a\n- b`,
        tokensBefore: 120000, tokensAfter: 9000, reason: 'threshold', model: 'fake-summarizer', cost: 0.0123,
        readFiles: ['src/a.ts'], modifiedFiles: ['src/b.ts'], firstKeptEntryId: `e${(i - 10).toString(16).padStart(6, '0')}`,
      };
    } else if (i % 2 === 0) {
      item = { kind: 'user', entryId: id, timestamp: ts, text: `Message ${i}: please look at \`src/file${i}.ts\` and fix the failing test.` };
    } else {
      const blocks = [{ type: 'text', text: `Reply ${i}. Here is the change:\n\n\`\`\`ts\nexport const value${i} = ${i};\n\`\`\`\n\nAnd some **bold** text with a list:\n\n- one\n- two` }];
      if (i % 10 === 1) blocks.push({ type: 'toolCall', id: `call${i}`, name: 'read', arguments: { path: `src/file${i}.ts` } });
      item = { kind: 'assistant', entryId: id, timestamp: ts, blocks, stopReason: i % 10 === 1 ? 'toolUse' : 'stop', model: 'fake' };
    }
    items.push(item);
    nodes.push({ id, parentId: parent, kind: item.kind, preview: (item.text ?? item.summary ?? `Reply ${i}`).split('\n')[0].slice(0, 120), onActivePath: true, isLeaf: i === count - 1, childCount: i === count - 1 ? 0 : 1, timestamp: ts });
    parent = id;
  }
  return { items, nodes, leafId: parent };
}

export function hostScript(count, stateExtra = {}) {
  const { items, nodes, leafId } = makeConversation(count);
  return [
    {
      type: 'state',
      state: {
        extensionVersion: '0.1.0', workspaceFolders: ['demo'], workspaceTrusted: true, modelLabel: 'Fake',
        sessionName: 'Bench session', models: [{ key: 'local/fake', label: 'Fake model', provider: 'local', contextWindow: 128000, reasoning: true }],
        currentModelKey: 'local/fake', thinkingLevel: 'off', busy: false, queued: [],
        usage: { contextTokens: 91000, estimatedTokens: 91000, contextWindow: 128000, thresholdTokens: 100000, sessionCost: 1.23, branchCost: 0.45, branchTokens: 250000 },
        settings: { branchSummaryEnabled: true },
        ...stateExtra,
      },
    },
    { type: 'conversation', leafId, items },
    { type: 'tree', leafId, nodes },
  ];
}
