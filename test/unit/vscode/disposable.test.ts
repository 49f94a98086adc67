// The adapters' shared Disposable base (src/vscode/disposable.ts): what a class registers is released with
// it, newest first, exactly once, and a thing registered after dispose() is released at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable } from '../../../src/vscode/disposable';

class Owner extends Disposable {
  readonly log: string[] = [];
  own(name: string): { dispose(): void } {
    return this.register({ dispose: () => this.log.push(name) });
  }
  get closed(): boolean {
    return this.isDisposed;
  }
}

test('dispose releases what was registered, newest first, once', () => {
  const owner = new Owner();
  const first = owner.own('emitter');
  owner.own('subscription');
  assert.equal(typeof first.dispose, 'function', 'register hands the item back');
  assert.deepEqual(owner.log, []);
  owner.dispose();
  assert.deepEqual(owner.log, ['subscription', 'emitter']);
  assert.equal(owner.closed, true);
  owner.dispose();
  assert.deepEqual(owner.log, ['subscription', 'emitter'], 'a second dispose releases nothing again');
});

test('a thing registered after dispose is released at once (a late subscription cannot leak)', () => {
  const owner = new Owner();
  owner.dispose();
  owner.own('late');
  assert.deepEqual(owner.log, ['late']);
});
