// Preloaded with `node -r`: makes `require('vscode')` return an inert stub (every property is a callable,
// constructible stub), so a VS Code extension bundle can be evaluated outside VS Code.
const Module = require('node:module');
const stubPath = require.resolve('./stub-vscode.cjs');
const make = () =>
  new Proxy(function stub() {}, {
    get: (target, key) => (key === Symbol.toPrimitive ? () => '' : key === 'then' ? undefined : make()),
    apply: () => make(),
    construct: () => make(),
  });
const original = Module._resolveFilename;
Module._resolveFilename = function resolve(request, ...rest) {
  return request === 'vscode' ? stubPath : original.call(this, request, ...rest);
};
require.cache[stubPath] = { id: stubPath, filename: stubPath, loaded: true, exports: make() };
