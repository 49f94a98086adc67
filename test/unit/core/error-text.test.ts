// errorText: the one caught-value-to-text used by src/mcp, src/vscode, src/session and src/llm.
import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { errorText } from '../../../src/core/error-text';

it('errorText gives an Error\'s message and String() of anything else', () => {
  assert.equal(errorText(new TypeError('bad type')), 'bad type');
  assert.equal(errorText(Object.assign(new Error('gone'), { code: 'ENOENT' })), 'gone');
  assert.equal(errorText('plain'), 'plain');
  assert.equal(errorText(undefined), 'undefined');
  assert.equal(errorText(42), '42');
  assert.equal(errorText({ message: 'not an Error' }), '[object Object]');
});
