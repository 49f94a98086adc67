import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTemplate } from '../../../src/core/prompts';

test('renderTemplate fills every placeholder', () => {
  assert.equal(renderTemplate('a {{x}} b {{ y }}', { x: '1', y: '2' }), 'a 1 b 2');
});

test('renderTemplate rejects a placeholder without a value', () => {
  assert.throws(() => renderTemplate('{{missing}}', {}), /missing/);
});

test('renderTemplate does not re-expand placeholders inside values', () => {
  assert.equal(renderTemplate('{{a}}', { a: '{{b}}' }), '{{b}}');
});
