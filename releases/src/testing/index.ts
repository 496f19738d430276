// For other packages' tests: what a test needs of the release store's inputs.
export { numberedBuilds } from './numbered-builds';
