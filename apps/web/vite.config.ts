import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress';

/** The console build; `npm run dev -w apps/web` proxies the API and socket to a running server. */
export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    proxy: {
      '/api': process.env.PLINTH_API ?? 'http://localhost:3000',
      '/ws': { target: process.env.PLINTH_API ?? 'http://localhost:3000', ws: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
