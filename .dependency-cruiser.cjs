// The one-way layers of the console (see docs/architecture.md):
//   renderer -> core/contract only; main -> core; core -> neither main, renderer, electron nor react;
//   capabilities never reach up into core/host (the composition root); no cycles.
module.exports = {
  forbidden: [
    {
      name: 'core-is-headless',
      comment: 'core/ runs under plain Node: no electron, no react, no main/ or renderer/',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: ['^main/', '^renderer/', '(^|/)node_modules/(electron|react|react-dom)/'] },
    },
    {
      name: 'core-does-not-import-electron-module',
      severity: 'error',
      from: { path: '^core/' },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-unknown', 'unknown', 'undetermined'], path: '^(electron|react|react-dom)$' },
    },
    {
      name: 'renderer-only-through-contract',
      comment: 'renderer/ talks to the core only through the browser-safe contract',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: ['^main/', '^core/(?!contract/)', '(^|/)node_modules/electron/'] },
    },
    {
      name: 'renderer-no-node',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'contract-is-browser-safe',
      comment: 'core/contract is loaded by the renderer: zod and itself only',
      severity: 'error',
      from: { path: '^core/contract/' },
      to: { path: '^(?!core/contract/|node_modules/zod/)' },
    },
    {
      name: 'capabilities-do-not-import-host',
      comment: 'core/host is the composition root: it hands capabilities their services; only the entry points (core/cli, main/) start it',
      severity: 'error',
      from: { path: '^core/', pathNot: '^core/(host|cli)/' },
      to: { path: '^core/host/' },
    },
    {
      name: 'no-cycles',
      comment: 'modules depend one way at run time: a cycle of imports makes two modules one (a type-only import back, e.g. a helper naming the class it helps, is no cycle at run time)',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'test-code-stays-in-test',
      severity: 'error',
      from: { path: '^(core|main|renderer)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
