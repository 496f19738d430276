import path from 'node:path';
import { createPlainAppConfig } from '../create-config';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const consoleDir = path.join(REPO_ROOT, 'console');

test('a plain app names itself in webpack’s words and lives in a folder with its entry and its page', () => {
  expect(() => createPlainAppConfig({ name: 'Portico Console', dir: consoleDir })).toThrow(/name must be lower-case letters, digits and _/);
  expect(() => createPlainAppConfig({ name: 'portico_console', dir: path.join(REPO_ROOT, 'host') })).toThrow(/a folder with src\/index.tsx/);
});

test('the console’s production build: hashed files at the root of its origin, its CSS in files, precompressed, no federation', () => {
  const config = createPlainAppConfig({ name: 'portico_console', dir: consoleDir })(undefined, { mode: 'production' });
  expect(config.output).toMatchObject({ publicPath: '/', filename: '[name].[contenthash:10].js', path: path.join(consoleDir, 'dist') });
  const plugins = (config.plugins ?? []).map((plugin) => plugin?.constructor.name);
  expect(plugins).toEqual(expect.arrayContaining(['HtmlWebpackPlugin', 'MiniCssExtractPlugin', 'CompressionPlugin']));
  expect(plugins).not.toContain('ModuleFederationPlugin');
});
