#!/usr/bin/env node
// Builds Arbor with esbuild.
//   node scripts/build.mjs               development build (sourcemaps, test suite included)
//   node scripts/build.mjs --production  release build (minified, no sourcemaps, no test suite)
//   node scripts/build.mjs --watch       development build, rebuilt on change
//   --metafile                           also writes esbuild's metafile of each Node bundle to dist/meta/
//                                        (what each input adds to it: bench/bundle-size.mjs reads them)
//
// Outputs: dist/extension.js (node/cjs, `vscode` external), dist/cli.js (if src/cli/main.ts exists),
// dist/webview/{main.js,main.css,toolkit.min.js} (browser), dist/test/suite.js (mocha bundled in).
//
// Provider SDKs (openai, @anthropic-ai/sdk) and gpt-tokenizer's cl100k table are built into files of their
// own under dist/vendor/ and must only be reached through `await import(...)`: activation then neither
// evaluates nor even parses them (about 1.5 MB). Never import them statically.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { zodLocalesPlugin } from './lib/zod-locales-plugin.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const metafile = args.has('--metafile');
const dist = join(root, 'dist');

/** Prints one line per (re)build, with errors counted, so watch mode is readable. */
function reporter(name) {
  return {
    name: 'arbor-reporter',
    setup(build) {
      let started = 0;
      build.onStart(() => {
        started = Date.now();
      });
      build.onEnd((result) => {
        const status = result.errors.length > 0 ? `FAILED (${result.errors.length} errors)` : 'ok';
        console.log(`[build] ${name}: ${status} in ${Date.now() - started} ms`);
      });
    },
  };
}

function findFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...findFiles(full, suffix));
    else if (name.endsWith(suffix)) found.push(full);
  }
  return found;
}

/**
 * `arbor:exthost-tests` is a generated module listing every test/exthost/**\/*.test.ts as a lazy loader,
 * so adding a test file needs no registration; suite.ts loads each one after mocha's pre-require.
 */
function exthostTestsPlugin() {
  const testDir = join(root, 'test', 'exthost');
  return {
    name: 'arbor-exthost-tests',
    setup(build) {
      build.onResolve({ filter: /^arbor:exthost-tests$/ }, () => ({ path: 'exthost-tests', namespace: 'arbor' }));
      build.onLoad({ filter: /.*/, namespace: 'arbor' }, () => {
        const files = findFiles(testDir, '.test.ts');
        const entries = files.map((file) => {
          const rel = relative(testDir, file).replaceAll('\\', '/');
          return `  { file: ${JSON.stringify(rel)}, load: () => import(${JSON.stringify(`./${rel}`)}) },`;
        });
        return {
          contents: `export const testFiles = [\n${entries.join('\n')}\n];\n`,
          resolveDir: testDir,
          loader: 'ts',
          watchFiles: files,
          watchDirs: [testDir],
        };
      });
    },
  };
}

/**
 * Lazily loaded packages → their file under dist/vendor/ (each built once, shared by every bundle):
 * every provider's SDK as its descriptor names it (src/llm/providers/), the tokenizer table, and markdown-it
 * (the HTML export only: src/cli/commands/export-html.ts).
 */
const VENDOR = {
  ...(await providerSdkChunks()),
  'gpt-tokenizer/encoding/cl100k_base': 'cl100k',
  'markdown-it': 'markdown-it',
  // SKILL.md front matter, read at the first prompt (src/agent/instructions/skill-scan.ts)
  yaml: 'yaml',
  // outside tools' JSON Schema validator, made when the first one is compiled (src/agent/tools/json-tool.ts)
  ajv: 'ajv',
};

/**
 * Arbor's own modules built into a vendor file of their own, for the same reason: import path as written
 * (only through `await import(...)`) → [chunk name, source]. The MCP client (its SDK, its tools' JSON Schema
 * validator) is loaded when the first MCP server starts (src/mcp/runtime.ts).
 */
const LOCAL_VENDOR = {
  './runtime': ['mcp-runtime', 'src/mcp/runtime.ts'],
};

/** Reads `sdkChunks()` from the provider table, bundled to a scratch file (packages stay external). */
async function providerSdkChunks() {
  const outfile = join(root, 'node_modules', '.cache', 'arbor-provider-table.mjs');
  await esbuild.build({
    entryPoints: [join(root, 'src', 'llm', 'providers', 'index.ts')],
    bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'error',
  });
  const table = await import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
  return table.sdkChunks();
}

/** Routes imports of the vendor packages to the prebuilt files, relative to the bundle being built. */
function vendorPlugin(vendorDir) {
  const specifiers = [...Object.keys(VENDOR), ...Object.keys(LOCAL_VENDOR)].map((name) => name.replace(/[/\-@.]/g, '\\$&'));
  const chunkOf = (path) => VENDOR[path] ?? LOCAL_VENDOR[path][0];
  return {
    name: 'arbor-vendor',
    // Each package becomes a tiny CommonJS shim that `require`s the prebuilt file. esbuild wraps the shim
    // in a lazy initialiser behind `import()`, so the file is read on first use only; and `require` keeps
    // the module's own `default` export (a native `import()` of a CJS file would wrap it once more).
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${specifiers.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'arbor-vendor' }));
      build.onLoad({ filter: /.*/, namespace: 'arbor-vendor' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`${vendorDir}/${chunkOf(args.path)}.js`)});\n`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.{1,2}\/vendor\// }, (args) => ({ path: args.path, external: true }));
    },
  };
}

function vendorConfigs() {
  const local = Object.values(LOCAL_VENDOR).map(([name, source]) => ({
    ...nodeCommon,
    entryPoints: [source],
    sourcemap: false,
    outfile: `dist/vendor/${name}.js`,
    plugins: [reporter(`vendor/${name}`)],
  }));
  return [...local, ...Object.entries(VENDOR).map(([specifier, name]) => ({
    ...nodeCommon,
    stdin: {
      contents: `export * from ${JSON.stringify(specifier)};\nexport { default } from ${JSON.stringify(specifier)};\n`,
      resolveDir: root,
      loader: 'js',
    },
    sourcemap: false,
    outfile: `dist/vendor/${name}.js`,
    plugins: [reporter(`vendor/${name}`)],
  }))];
}

const nodeCommon = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  sourcemap: production ? false : 'linked',
  minify: production,
  // Prefer ESM entry points: they tree-shake better and stay lazily initialised behind import().
  mainFields: ['module', 'main'],
  logLevel: 'warning',
  absWorkingDir: root,
  metafile,
};

function configs() {
  const list = [
    ...vendorConfigs(),
    {
      ...nodeCommon,
      entryPoints: ['src/extension.ts'],
      outfile: 'dist/extension.js',
      plugins: [reporter('extension'), vendorPlugin('./vendor'), zodLocalesPlugin()],
    },
    {
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: ['chrome114'],
      sourcemap: production ? false : 'linked',
      minify: production,
      logLevel: 'warning',
      absWorkingDir: root,
      entryPoints: ['webview/main.ts', ...findFiles(join(root, 'webview'), '.css').map((f) => relative(root, f))],
      outbase: 'webview',
      outdir: 'dist/webview',
      plugins: [reporter('webview'), zodLocalesPlugin()],
    },
  ];
  if (existsSync(join(root, 'src', 'cli', 'main.ts'))) {
    list.push({
      ...nodeCommon,
      entryPoints: ['src/cli/main.ts'],
      outfile: 'dist/cli.js',
      banner: { js: '#!/usr/bin/env node' },
      plugins: [reporter('cli'), vendorPlugin('./vendor'), zodLocalesPlugin(), {
        name: 'arbor-chmod',
        setup(build) {
          build.onEnd((result) => {
            if (result.errors.length === 0 && existsSync(join(dist, 'cli.js'))) chmodSync(join(dist, 'cli.js'), 0o755);
          });
        },
      }],
    });
  } else {
    console.log('[build] cli: skipped (src/cli/main.ts does not exist yet)');
  }
  if (!production) {
    list.push({
      ...nodeCommon,
      entryPoints: ['test/exthost/suite.ts'],
      outfile: 'dist/test/suite.js',
      // mocha's optional parallel mode uses require.resolve on its own files; we never use it.
      logOverride: { 'require-resolve-not-external': 'silent' },
      plugins: [reporter('exthost test suite'), exthostTestsPlugin(), vendorPlugin('../vendor'), zodLocalesPlugin()],
    });
  }
  return list;
}

function copyToolkit() {
  mkdirSync(join(dist, 'webview'), { recursive: true });
  copyFileSync(
    join(root, 'node_modules', '@vscode', 'webview-ui-toolkit', 'dist', 'toolkit.min.js'),
    join(dist, 'webview', 'toolkit.min.js'),
  );
}

/** dist/meta/<bundle>.json for each Node bundle with an outfile (extension.js, cli.js, vendor/*). */
function writeMetafiles(list, results) {
  mkdirSync(join(dist, 'meta'), { recursive: true });
  list.forEach((config, i) => {
    if (!config.outfile || !results[i].metafile) return;
    const name = relative('dist', config.outfile).replace(/[\\/]/g, '_').replace(/\.js$/, '');
    writeFileSync(join(dist, 'meta', `${name}.json`), JSON.stringify(results[i].metafile));
  });
}

rmSync(dist, { recursive: true, force: true });
copyToolkit();
const started = Date.now();
if (watch) {
  const contexts = await Promise.all(configs().map((config) => esbuild.context(config)));
  await Promise.all(contexts.map((ctx) => ctx.watch()));
  console.log('[build] watching for changes (Ctrl+C to stop)');
  const stop = async () => {
    await Promise.all(contexts.map((ctx) => ctx.dispose()));
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} else {
  try {
    const list = configs();
    const results = await Promise.all(list.map((config) => esbuild.build(config)));
    if (metafile) writeMetafiles(list, results);
  } catch {
    // esbuild already printed the errors.
    process.exit(1);
  }
  console.log(`[build] ${production ? 'production' : 'development'} build done in ${Date.now() - started} ms`);
}
