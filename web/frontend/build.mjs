// Bundles the page of `cqldb serve` (issue 39): src/main.js with chessground and chessops
// into OUT/app.js, src/style.css with chessground's board and piece styles into OUT/app.css
// (minified, no source maps: they are compiled into the binary by CMakeLists.txt).
//   node build.mjs OUT_DIR
import { build } from 'esbuild';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = process.argv[2];
if (!out) {
  console.error('usage: node build.mjs OUT_DIR');
  process.exit(2);
}
const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', absWorkingDir: dirname(fileURLToPath(import.meta.url)) };
await build({ ...common, entryPoints: ['src/main.js'], outfile: `${out}/app.js`, format: 'esm', target: 'es2020' });
await build({ ...common, entryPoints: ['src/style.css'], outfile: `${out}/app.css`, loader: { '.svg': 'dataurl' } });
