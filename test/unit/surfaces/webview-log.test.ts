// Issue #14 item 7: a webview `log` message cannot forge lines in the Arbor output channel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webviewLogLine, WEBVIEW_LOG_MAX } from '../../../src/vscode/log-text';

test('newlines, carriage returns, control and bidi characters are escaped: one message is one line', () => {
  const forged = 'dropped message\n2025-01-01 00:00:00.000 [info] API key accepted\r\x1b[2K\x85\u2028fake\u202Eevil';
  const line = webviewLogLine(forged);
  assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  assert.equal(line, 'chat webview: dropped message\\n2025-01-01 00:00:00.000 [info] API key accepted\\r\\u001b[2K\\u0085\\u2028fake\\u202eevil');
});

test('a long message is capped, saying how long it was', () => {
  const line = webviewLogLine('x'.repeat(4000));
  assert.ok(line.length < WEBVIEW_LOG_MAX + 100, `${line.length} chars`);
  assert.match(line, /… \(4000 chars\)$/);
  assert.equal(webviewLogLine('plain text: ü ✓'), 'chat webview: plain text: ü ✓');
});
