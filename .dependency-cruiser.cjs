// `npm run lint`'s import-cycle check (dependency-cruiser): no module may
// reach itself through its imports, `import type` included. A cycle of types
// is still a knot a maintainer must hold whole (the control API's options,
// context and every route were one; docs/decisions/architecture.md), and
// eslint-plugin-import-x's no-cycle skips type-only imports by design.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'An import cycle, `import type` included: move the shared type to the module that owns it, or pass the value instead.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-node|\\.tsbuild|coverage|test-results)/|^bench/out/' },
    // Keep what TypeScript erases (`import type`, type-only re-exports): a cycle of types counts.
    tsPreCompilationDeps: true,
    // The workspaces by their package.json `exports`, as TypeScript and webpack resolve them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json'],
    },
  },
};
