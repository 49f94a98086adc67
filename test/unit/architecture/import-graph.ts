// The relative imports of src/ and webview/ as a file graph, and the layer table of docs/architecture.md
// ("Modules") read from the document itself, so the layer test checks the table the docs show. Every import
// counts: static, `import type`, `export … from` and `await import()`; a type-only arrow still ties the files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface Layer {
  /** the table's first column: a folder ending in `/` or one file */
  path: string;
  /** the layers it may import besides itself */
  mayImport: string[];
}

export interface ImportEdge {
  from: string;
  to: string;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  return [`${base}.ts`, join(base, 'index.ts'), base].find((c) => existsSync(c) && statSync(c).isFile());
}

/** Every relative import between the repository's source files, as repository-relative paths. */
export function importEdges(root: string): ImportEdge[] {
  const files = ['src', 'webview'].flatMap((dir) => sourceFiles(join(root, dir)));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const target = resolveImport(file, match[1] ?? match[2]);
      if (target?.endsWith('.ts')) edges.push({ from: relative(root, file), to: relative(root, target) });
    }
  }
  return edges;
}

const cells = (row: string) => row.split('|').slice(1, -1).map((c) => c.trim());
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The "Modules" table: rows whose first cell is a `src/…` or `webview/` path; "may import" is its third cell. */
export function layerTable(markdown: string): Layer[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith('Modules'));
  if (!section) throw new Error('docs/architecture.md has no "## Modules" section');
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  const paths = rows.map((row) => ticked(cells(row)[0])[0]).filter((p) => /^(src|webview)\b/.test(p));
  return rows
    .map((row) => cells(row))
    .filter((c) => paths.includes(ticked(c[0])[0]))
    .map((c) => ({ path: ticked(c[0])[0], mayImport: ticked(c[2]).filter((t) => paths.includes(t)) }));
}

/** The layer a file belongs to: the longest table path it lies in. */
export function layerOf(file: string, layers: Layer[]): string | undefined {
  const fits = layers.filter((l) => (l.path.endsWith('/') ? file.startsWith(l.path) : file === l.path));
  return fits.sort((a, b) => b.path.length - a.path.length)[0]?.path;
}

/** Imports the table does not allow, as `from -> to` lines (a file outside every layer is one too). */
export function importsAgainstTable(edges: ImportEdge[], layers: Layer[]): string[] {
  const allowed = new Map(layers.map((l) => [l.path, new Set([l.path, ...l.mayImport])]));
  return edges
    .filter(({ from, to }) => {
      const source = layerOf(from, layers);
      const target = layerOf(to, layers);
      return !source || !target || !allowed.get(source)!.has(target);
    })
    .map(({ from, to }) => `${from} -> ${to}`);
}

/** Strongly connected sets of files (Tarjan), each sorted; only those of more than `minSize - 1` files. */
export function importCycles(edges: ImportEdge[], minSize = 3): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) visit(to);
      if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, low.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const cycle = stack.splice(stack.indexOf(file));
    if (cycle.length >= minSize) cycles.push(cycle.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
