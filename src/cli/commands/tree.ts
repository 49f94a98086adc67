// `tree FILE`: the whole tree, indented at branch points only (long linear runs stay flat), with ids,
// kinds, labels and the active path (`*`, leaf marked `<- leaf`).
import type { SessionTreeNode } from '../../session/store-types';
import { openForCli, parseCommandArgs, resolveLeafOption, type CliCommand } from '../command';
import { entryKind, entryPreview } from '../describe';

export const treeCommand: CliCommand = {
  usage: 'tree FILE [--leaf ID]',
  summary: 'print the entry tree with ids, kinds, labels and the active path',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(args, { leaf: { type: 'string' } }, ['FILE']);
    const store = await openForCli(positionals[0]!, io);
    const leafId = resolveLeafOption(store, values.leaf);
    const active = new Set(store.getBranch(leafId).map((e) => e.id));
    const lines: string[] = [];
    const stack: { node: SessionTreeNode; depth: number }[] = [];
    const roots = store.getTree();
    for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i]!, depth: roots.length > 1 ? 1 : 0 });
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      const { entry } = node;
      const mark = active.has(entry.id) ? '*' : ' ';
      const label = node.label !== undefined ? ` [${node.label}]` : '';
      const leaf = entry.id === leafId ? '  <- leaf' : '';
      const preview = entryPreview(entry);
      lines.push(`${mark} ${'  '.repeat(depth)}${entry.id} ${entryKind(entry)}${label}${preview ? `  ${preview}` : ''}${leaf}`);
      const childDepth = node.children.length > 1 ? depth + 1 : depth;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i]!, depth: childDepth });
    }
    io.out(lines.length > 0 ? lines.join('\n') : '(no entries)');
    return 0;
  },
};
