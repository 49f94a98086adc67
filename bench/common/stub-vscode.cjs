// Preloaded with `node -r`: makes `require('vscode')` return an inert stub (every property is a callable,
// constructible stub), so a VS Code extension bundle can be evaluated outside VS Code.
const Module = require('node:module');
const stubPath = require.resolve('./stub-vscode.cjs');
const make = () =>
  new Proxy(function stub() {}, {
    get: (target, key) => (key === Symbol.toPrimitive ? () => '' : key === 'then' ? undefined : make()),
    apply: () => make(),
    construct: () => make(),
    // esbuild's interop copies own members onto an object made from the module's prototype: members the
    // bundle touches at load (enums such as DiagnosticSeverity) are found there
    getPrototypeOf: () => anyMember,
  });
const anyMember = new Proxy({}, { get: (target, key) => (key === 'then' || key === Symbol.toPrimitive ? undefined : make()) });
const original = Module._resolveFilename;
Module._resolveFilename = function resolve(request, ...rest) {
  return request === 'vscode' ? stubPath : original.call(this, request, ...rest);
};
require.cache[stubPath] = { id: stubPath, filename: stubPath, loaded: true, exports: make() };
