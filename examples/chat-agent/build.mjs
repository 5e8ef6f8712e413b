// Bundles the page (React, useChat, toolroute/client) into public/app.js: no CDN at run time.
import { build } from 'esbuild'

await build({
  entryPoints: ['src/page.tsx'],
  outfile: 'public/app.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  minify: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
})
