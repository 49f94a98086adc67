// An esbuild plugin for every bundle scripts/build.mjs makes (and the bundle-size bench's check of it).
/**
 * zod's `locales` namespace (every language's error messages, about 255 KB minified) is re-exported by its
 * index and so bundled whole; Arbor never calls `z.config(z.locales.xx())`, and the English default is
 * imported by zod's schemas directly. This resolves the namespace to an empty module in every bundle.
 */
export function zodLocalesPlugin() {
  return {
    name: 'arbor-zod-locales',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: 'zod-locales', namespace: 'arbor-zod-locales' } : undefined);
      build.onLoad({ filter: /.*/, namespace: 'arbor-zod-locales' }, () => ({ contents: 'export {};\n', loader: 'js' }));
    },
  };
}
