// The command registry: adding a command is one line here plus its module.
import type { CliCommand } from '../command';
import { branchPlanCommand } from './branch-plan';
import { compactCommand } from './compact';
import { contextCommand } from './context';
import { exportCommand } from './export';
import { filesCommand } from './files';
import { planCommand } from './plan';
import { statsCommand } from './stats';
import { treeCommand } from './tree';

export const commands: Record<string, CliCommand> = {
  context: contextCommand,
  tree: treeCommand,
  stats: statsCommand,
  export: exportCommand,
  plan: planCommand,
  'branch-plan': branchPlanCommand,
  compact: compactCommand,
  files: filesCommand,
};
