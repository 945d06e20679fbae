import { defineConfig } from 'vitest/config';
import preact from '@preact/preset-vite';

// `npm run dev` proxies the API to a running BFF (VARROA_BFF_URL, default http://localhost:8080).
const bff = process.env.VARROA_BFF_URL ?? 'http://localhost:8080';
const apiPaths = ['/me', '/clusters', '/controllers', '/broodoperations', '/broodschedules', '/cells', '/teams', '/runs', '/activity', '/search', '/statistics', '/auth', '/manifests'];

export default defineConfig({
  base: '/ui/',
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    // Maven packs dashboard/target/classes into the BFF jar, so the client lands under ui/ on its classpath.
    outDir: '../target/classes/ui',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    proxy: Object.fromEntries(apiPaths.map((p) => [p, { target: bff, changeOrigin: false }])),
  },
  test: {
    environment: 'happy-dom',
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['e2e/**', 'node_modules/**'],
  },
});
