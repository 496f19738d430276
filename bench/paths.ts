import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..');
export const OUT_DIR = path.join(REPO_ROOT, 'bench/out');
