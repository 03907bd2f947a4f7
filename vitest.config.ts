import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Component tests opt into a DOM with `// @vitest-environment happy-dom`.
    environment: 'node',
    // The job runner checks each job and records it keeps against a read (core/engine/jobs/held.ts).
    env: { CONSOLE_VERIFY_HELD: '1' },
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
