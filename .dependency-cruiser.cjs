/**
 * The module-graph rules of src/, checked by `npm run graph` (scripts/module-graph.mjs, a gate of `npm test`), which
 * also holds the imports of .astro files and the files an `import.meta.glob` pulls in to these rules, and checks that
 * no two folders import each other both ways.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'browser-off-server',
      comment: 'browser code must not import the server',
      severity: 'error',
      from: { path: '^src/(islands|stores|client|shared)/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-off-ui',
      comment: 'the server must not import UI code',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/(components|islands)/' },
    },
    {
      name: 'no-cycles',
      comment: 'no module takes part in an import cycle (type-only imports included)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
