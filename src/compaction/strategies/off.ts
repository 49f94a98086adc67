// Strategy "off": automatic compaction never runs (a manual one still compacts in place, see ./index.ts).
import { skipped } from '../outcome';
import type { CompactionStrategy } from './types';

export const off: CompactionStrategy = {
  name: 'off',
  refuse: () => 'disabled',
  needsCut: () => false,
  run: async () => skipped('disabled'),
};
