// Reads one SKILL.md (the open Agent Skills format: YAML front matter with `name` and `description`,
// a Markdown body of instructions) and checks it against the format's rules. A file that breaks a rule
// comes back as a problem naming the file and the rule, never as a silently dropped skill
// (docs/architecture.md, "Skills and instruction files").

export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;
/** Largest SKILL.md read at all: a skill's body is loaded whole into the conversation. */
export const SKILL_FILE_MAX_BYTES = 256 * 1024;

const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface ParsedSkill {
  name: string;
  description: string;
  /** the Markdown after the front matter */
  body: string;
  /** `disable-model-invocation: true`: kept out of the model's list (a user-only skill elsewhere) */
  hidden: boolean;
  /** notes that did not stop the skill from loading (description cut, name differs from its folder) */
  warnings: string[];
}

export type SkillFileResult = { ok: true; skill: ParsedSkill } | { ok: false; problem: string };

type YamlParse = (text: string) => unknown;

/** Splits `---\n<yaml>\n---\n<body>`; undefined when the file does not open with front matter. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const clean = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!clean.startsWith('---\n')) return undefined;
  const end = clean.indexOf('\n---', 3);
  if (end < 0) return undefined;
  const after = clean.indexOf('\n', end + 4);
  const closing = clean.slice(end + 4, after < 0 ? undefined : after);
  if (closing.trim() !== '') return undefined;
  return { yaml: clean.slice(4, end + 1), body: after < 0 ? '' : clean.slice(after + 1) };
}

/** Why `name` is not a valid skill name, or undefined. Names never hold path characters. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) return 'its name is empty';
  if (name.length > SKILL_NAME_MAX) return `its name is ${name.length} characters long (at most ${SKILL_NAME_MAX})`;
  if (!NAME_PATTERN.test(name)) {
    return `its name "${name.slice(0, 80)}" may hold only lowercase letters, digits and single hyphens inside (a-z, 0-9, -)`;
  }
  return undefined;
}

function frontMatterOf(text: string, parseYaml: YamlParse): { data: Record<string, unknown>; body: string } | string {
  const parts = splitFrontMatter(text);
  if (!parts) return 'it does not start with YAML front matter between --- lines';
  let data: unknown;
  try {
    data = parseYaml(parts.yaml);
  } catch (error) {
    return `its front matter is not valid YAML (${((error as Error).message ?? String(error)).split('\n')[0]})`;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return 'its front matter is not a YAML mapping';
  return { data: data as Record<string, unknown>, body: parts.body };
}

/** Parses and checks one SKILL.md whose folder is named `folderName`. */
export function parseSkillFile(text: string, folderName: string, parseYaml: YamlParse): SkillFileResult {
  const parsed = frontMatterOf(text, parseYaml);
  if (typeof parsed === 'string') return { ok: false, problem: parsed };
  const { data } = parsed;
  const warnings: string[] = [];
  const name = typeof data.name === 'string' ? data.name.trim() : '';
  if (typeof data.name !== 'string') return { ok: false, problem: 'its front matter has no `name`' };
  const badName = nameProblem(name);
  if (badName) return { ok: false, problem: badName };
  if (name !== folderName) warnings.push(`its name "${name}" differs from its folder "${folderName}"`);
  let description = typeof data.description === 'string' ? data.description.replace(/\s+/g, ' ').trim() : '';
  if (description === '') return { ok: false, problem: 'its front matter has no `description` (the model picks a skill by it)' };
  if (description.length > SKILL_DESCRIPTION_MAX) {
    warnings.push(`its description is ${description.length} characters long; only the first ${SKILL_DESCRIPTION_MAX} are shown to the model`);
    description = `${description.slice(0, SKILL_DESCRIPTION_MAX - 1)}…`;
  }
  const body = parsed.body.trim();
  return { ok: true, skill: { name, description, body, hidden: data['disable-model-invocation'] === true, warnings } };
}
