// The "Instructions: AGENTS.md, src/api/AGENTS.md, ~/.pi/agent/AGENTS.md · Skills: 3" line under the
// header: which instruction files the chat's agent follows (each a link that opens it) and how many
// skills it may load (a link to the list and its problems). One row: the file list ends in an ellipsis
// when it does not fit (its tooltip lists every path), the skills link always shows; hidden when there is
// nothing to show.
import type { ChatState, InstructionsInfo } from '../../src/protocol';
import { el } from '../dom';
import { t } from '../l10n';

export interface InstructionsLineActions {
  openFile(path: string): void;
  /** the pick of every file, skill and skill problem */
  showAll(): void;
}

export interface InstructionsLine {
  root: HTMLElement;
  update(state: ChatState | undefined): void;
}

function scopeTitle(scope: InstructionsInfo['files'][number]['scope']): string {
  if (scope === 'global') return t('Your own instructions, for every project');
  if (scope === 'root') return t('The project’s instructions');
  return t('Instructions for the files under this folder (added when the agent worked there)');
}

function fileLink(file: InstructionsInfo['files'][number], actions: InstructionsLineActions): HTMLElement {
  const link = el('a', { class: 'instructions-file', href: '#', title: `${scopeTitle(file.scope)}: ${file.path}`, 'data-scope': file.scope }, file.label);
  link.addEventListener('click', (event) => {
    event.preventDefault();
    actions.openFile(file.path);
  });
  return link;
}

function skillsLink(info: InstructionsInfo, actions: InstructionsLineActions): HTMLElement {
  const text = info.problems === 0 ? t('Skills: {0}', info.skills) : info.problems === 1 ? t('Skills: {0} (1 problem)', info.skills) : t('Skills: {0} ({1} problems)', info.skills, info.problems);
  const link = el('a', { class: 'instructions-skills', href: '#', title: t('List the skills the agent can load, and any skill problems') }, text);
  if (info.problems > 0) link.classList.add('has-problems');
  link.addEventListener('click', (event) => {
    event.preventDefault();
    actions.showAll();
  });
  return link;
}

export function createInstructionsLine(actions: InstructionsLineActions): InstructionsLine {
  const root = el('div', { class: 'instructions-line', id: 'instructions-line', hidden: true });
  let shown = '';
  return {
    root,
    update(state) {
      const info = state?.instructions;
      const key = JSON.stringify(info ?? null);
      if (key === shown) return;
      shown = key;
      root.hidden = !info;
      if (!info) return root.replaceChildren();
      const parts: HTMLElement[] = [];
      if (info.files.length > 0) {
        const label = el('a', { class: 'instructions-label', href: '#', title: t('List every instruction file and skill') }, t('Instructions ({0}):', info.files.length));
        label.addEventListener('click', (event) => {
          event.preventDefault();
          actions.showAll();
        });
        const links: (HTMLElement | string)[] = [label, ' '];
        info.files.forEach((file, i) => links.push(...(i > 0 ? [', '] : []), fileLink(file, actions)));
        parts.push(el('span', { class: 'instructions-files', title: info.files.map((f) => f.path).join('\n') }, ...links));
      }
      if (info.skills > 0 || info.problems > 0) {
        if (parts.length > 0) parts.push(el('span', { class: 'instructions-sep', 'aria-hidden': 'true' }, '\u00b7'));
        parts.push(skillsLink(info, actions));
      }
      root.replaceChildren(...parts);
    },
  };
}
