import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Inventory } from '../src/inventory.js';

test('selling the last copy leaves the book out of stock', () => {
  const inventory = new Inventory();
  inventory.add('978-0', 'The Overstory');
  inventory.sell('978-0');
  assert.deepEqual(inventory.inStock(), []);
});

test('adding copies of a known book increases its count', () => {
  const inventory = new Inventory();
  inventory.add('978-1', 'Braiding Sweetgrass', 2);
  inventory.add('978-1', 'Braiding Sweetgrass', 3);
  assert.equal(inventory.inStock()[0].copies, 5);
});
