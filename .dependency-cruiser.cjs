// The one-way layers of the console (see README "Architecture"):
//   renderer -> core/contract only; main -> core; core -> neither main, renderer, electron nor react.
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
