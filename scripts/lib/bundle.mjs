// What the two bundles of menuctl share (scripts/build-cli.mjs: the `menuctl` command;
// scripts/build-action.mjs: the GitHub Action): esbuild, ESM for Node 20, better-sqlite3 left
// out (serve and demo load it at run time; it compiles natively), and the module-local requires
// turned into requires esbuild can bundle.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Some modules load a package with a module-local require (createRequire(import.meta.url)), to
 * keep it off the start-up path; esbuild leaves such calls to run time, where the action's
 * checkout has no node_modules. Turn them into plain require() calls, which esbuild bundles (and
 * still runs only when called). better-sqlite3 stays external.
 */
const bundleLocalRequires = {
  name: 'bundle-local-requires',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('createRequire(import.meta.url)') || /better-sqlite3/.test(source)) return undefined;
      const contents = source
        .replace(/const require = createRequire\(import\.meta\.url\);/g, '')
        .replace(/createRequire\(import\.meta\.url\)\(/g, 'require(');
      if (contents.includes('createRequire(import.meta.url)')) throw new Error(`${args.path}: a createRequire use this plugin does not know`);
      return { contents, loader: 'ts' };
    });
  },
};

const common = (header) => ({
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  external: ['better-sqlite3'],
  plugins: [bundleLocalRequires],
  // ESM output still runs bundled CommonJS packages (ajv), which need a require.
  banner: { js: `${header}\nimport { createRequire as __menuctlCreateRequire } from 'node:module';\nconst require = __menuctlCreateRequire(import.meta.url);` },
  legalComments: 'none',
  logLevel: 'error',
});

/**
 * One entry point and all it imports as one ESM file's text, `header` first. The file must sit
 * two directories below the repository root, like dist/cli/*.js, so the sources'
 * `new URL('../../data/...', import.meta.url)` paths find data/, schemas/ and examples/.
 */
export async function bundle(entry, header) {
  const result = await build({ ...common(header), entryPoints: [entry], write: false });
  return result.outputFiles[0].text;
}

/**
 * The same, written to `outdir` (two directories below the root) as `<name>.js` and chunks beside
 * it: what an entry imports lazily (`await import()`) is its own chunk, loaded when first used,
 * so a small command parses only what it runs.
 */
export async function bundleSplit(name, entry, outdir, header) {
  await build({ ...common(header), entryPoints: { [name]: entry }, outdir, splitting: true, chunkNames: 'chunk-[hash]', write: true });
}
