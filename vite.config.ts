import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is built to dist/renderer with relative URLs, so Electron can load it from disk.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: { outDir: '../dist/renderer', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});
