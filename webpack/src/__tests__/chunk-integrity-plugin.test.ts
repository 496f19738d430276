import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import webpack from 'webpack';
import { ChunkIntegrityPlugin } from '../chunk-integrity-plugin';
import { sriOf } from '../integrity';

/** Builds a two-chunk app (the lazy chunk has JS and CSS) with the plugin. */
async function build(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portico-sri-'));
  writeFileSync(path.join(dir, 'index.js'), 'import("./lazy.js").then((m) => m.run());\n');
  writeFileSync(path.join(dir, 'lazy.js'), 'import "./lazy.css";\nexport const run = () => document.title;\n');
  writeFileSync(path.join(dir, 'lazy.css'), 'body { color: black; }\n');
  const compiler = webpack({
    mode: 'production',
    context: dir,
    entry: './index.js',
    output: { path: path.join(dir, 'dist'), filename: '[name].[contenthash:10].js', crossOriginLoading: 'anonymous' },
    module: { rules: [{ test: /\.css$/, use: [MiniCssExtractPlugin.loader, require.resolve('css-loader')] }] },
    plugins: [new MiniCssExtractPlugin({ chunkFilename: '[id].[contenthash:10].css' }), new ChunkIntegrityPlugin()],
  });
  await new Promise<void>((resolve, reject) =>
    compiler.run((error, stats) => {
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
      else compiler.close(() => resolve());
    }),
  );
  return path.join(dir, 'dist');
}

test('the runtime carries the SHA-384 of the final bytes of each chunk it loads, JS and CSS', async () => {
  const dist = await build();
  const files = readdirSync(dist);
  const main = files.find((file) => file.startsWith('main.'))!;
  const lazyJs = files.find((file) => file.endsWith('.js') && file !== main)!;
  const lazyCss = files.find((file) => file.endsWith('.css'))!;
  const runtime = readFileSync(path.join(dist, main), 'utf8');

  expect(runtime).toContain(sriOf(readFileSync(path.join(dist, lazyJs))));
  expect(runtime).toContain(sriOf(readFileSync(path.join(dist, lazyCss))));
  expect(runtime).not.toContain('portico-sri:');
  // The script and the stylesheet it creates are given the hash.
  expect(runtime).toMatch(/\.integrity=\w+\.sriHashes\.js\[/);
  expect(runtime).toMatch(/\.integrity=\w+\.sriHashes\.css\[/);
  rmSync(path.dirname(dist), { recursive: true, force: true });
}, 30_000);
