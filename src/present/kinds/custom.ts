// `custom` entries: an extension's (or Arbor's) data, never in the context or the chat. Arbor's file
// checkpoints (`arbor.files`, src/checkpoints/) say in both trees how many files their turn changed.
import { readManifest } from '../../checkpoints/manifest';
import type { CustomEntry, SessionEntry } from '../../session/entries';
import type { EntryKind } from './kind';

/** "N files changed" for an `arbor.files` manifest of a turn; undefined for other entries. */
export function filesChangedLine(entry: SessionEntry): string | undefined {
  const read = readManifest(entry);
  if (read.kind !== 'manifest') return undefined;
  const count = Object.keys(read.manifest.after).length;
  const files = count === 1 ? '1 file' : `${count} files`;
  return read.manifest.reason === 'turn' ? `${files} changed` : `${files} saved before a restore`;
}

export const customKind: EntryKind<CustomEntry> = {
  isShown: () => false,
  view: () => undefined,
  treeKind: () => 'custom',
  summaryLine: (entry) => filesChangedLine(entry) ?? entry.customType,
  look(entry, t) {
    const files = filesChangedLine(entry);
    if (files) return { kind: t('Files'), icon: 'files', text: files };
    return { kind: t('Extension data ({0})', entry.customType), icon: 'symbol-misc', text: '' };
  },
  cliKind: (entry) => entry.type,
  cliText: (entry) => entry.customType,
  sections: () => [],
};
