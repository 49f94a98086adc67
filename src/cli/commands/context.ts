// `context FILE [--leaf ID | --leaf null]`: the LLM-facing messages of a leaf as one JSON object.
import { convertToLlm } from '../../session/convert';
import { openForCli, parseCommandArgs, resolveLeafOption, type CliCommand } from '../command';

export const contextCommand: CliCommand = {
  usage: 'context FILE [--leaf ID | --leaf null]',
  summary: 'print {"leafId", "messages"} as the LLM would see them (leaf default: last entry)',
  async run(args, io) {
    const { positionals, values } = parseCommandArgs(args, { leaf: { type: 'string' } }, ['FILE']);
    const store = await openForCli(positionals[0]!, io);
    const leafId = resolveLeafOption(store, values.leaf);
    const messages = convertToLlm(store.buildContext(leafId).messages);
    io.out(JSON.stringify({ leafId, messages }));
    return 0;
  },
};
