import { classifyFailure, isTransientStatus, RemoteFault } from '../classify-failure';

const manifestUrl = 'https://cdn.example/contact/mf-manifest.json';
const entryUrl = 'https://cdn.example/contact/remoteEntry.js';

/**
 * An error as Module Federation's runtime throws it: the format of
 * getShortErrorMsg in @module-federation/error-codes, behind the runtime's
 * log category.
 */
function federationError(code: string, description: string, args: Record<string, string>, original?: string): Error {
  const lines = [
    `[ Federation Runtime ]: ${description} #${code}`,
    `args: ${JSON.stringify(args)}`,
    `View the docs to see how to solve: https://module-federation.io/guide/troubleshooting/runtime#${code.toLowerCase()}`,
  ];
  if (original) lines.push(`Original Error Message:\n ${original}`);
  return new Error(lines.join('\n'));
}

function chunkLoadError(type: 'missing' | 'timeout', request: string): Error {
  return Object.assign(new Error(`Loading chunk 548 failed.\n(${type}: ${request})`), { name: 'ChunkLoadError', type, request });
}

test.each([
  [
    'a manifest the runtime could not fetch',
    federationError('RUNTIME-003', 'Failed to get manifest.', { manifestUrl, moduleName: 'portico_contact' }, 'TypeError: Failed to fetch'),
    { stage: 'manifest', url: manifestUrl, cause: 'could not be fetched (TypeError: Failed to fetch)', transient: true },
  ],
  [
    'a manifest that is not JSON',
    federationError('RUNTIME-003', 'Failed to get manifest.', { manifestUrl }, "SyntaxError: Unexpected token '<'"),
    { stage: 'manifest', url: manifestUrl, cause: 'is not JSON', transient: false },
  ],
  [
    'JSON that is not a federation manifest',
    federationError('RUNTIME-013', 'The manifest is not a valid Module Federation manifest.', { manifestUrl, missingFields: 'metaData' }),
    { stage: 'manifest', url: manifestUrl, cause: 'is not a Module Federation manifest', transient: false },
  ],
  [
    'a remoteEntry.js that did not load',
    federationError(
      'RUNTIME-008',
      'Failed to load script resources.',
      { remoteName: 'portico_contact', resourceUrl: entryUrl },
      `ScriptNetworkError: Failed to load script "${entryUrl}" - the script URL is unreachable or the server returned an error (network failure, 404, CORS, etc.)`,
    ),
    { stage: 'entry', url: entryUrl, cause: 'could not be loaded (missing, unreachable or refused)', transient: true },
  ],
  [
    'a remoteEntry.js that timed out',
    federationError('RUNTIME-008', 'Failed to load script resources.', { resourceUrl: entryUrl }, `ScriptNetworkError: Script "${entryUrl}" timed out.`),
    { stage: 'entry', url: entryUrl, cause: 'timed out', transient: true },
  ],
  [
    'a remoteEntry.js that threw while running',
    federationError(
      'RUNTIME-008',
      'Failed to load script resources.',
      { resourceUrl: entryUrl },
      `ScriptExecutionError: Script "${entryUrl}" loaded but threw a runtime error during execution: boom`,
    ),
    { stage: 'entry', url: entryUrl, cause: 'threw an error while it ran', transient: false },
  ],
  [
    'a remoteEntry.js that defined no container',
    federationError('RUNTIME-001', 'Failed to get remoteEntry exports.', { remoteName: 'portico_contact', remoteEntryUrl: entryUrl }),
    { stage: 'entry', url: entryUrl, cause: 'ran but did not define its container', transient: false },
  ],
  [
    'a container that failed to start',
    federationError('RUNTIME-015', 'Remote container initialization failed.', { remoteEntryUrl: entryUrl }, 'Error: share scope'),
    { stage: 'entry', url: entryUrl, cause: 'failed to start its container (Error: share scope)', transient: false },
  ],
  [
    'a container without the requested module',
    federationError('RUNTIME-014', 'The remote does not expose the requested module.', { remoteEntryUrl: entryUrl, expose: './section' }),
    { stage: 'entry', url: entryUrl, cause: 'does not expose ./section', transient: false },
  ],
  [
    "webpack's own answer for a module the container lacks",
    new Error('Module "./section" does not exist in container.'),
    { stage: 'entry', url: manifestUrl, cause: 'does not expose ./section', transient: false },
  ],
  [
    'a chunk that did not load',
    chunkLoadError('missing', 'https://cdn.example/contact/548.0123456789.js'),
    { stage: 'chunk', url: 'https://cdn.example/contact/548.0123456789.js', cause: 'could not be loaded (missing, unreachable or refused)', transient: true },
  ],
  [
    'a chunk that timed out',
    chunkLoadError('timeout', 'https://cdn.example/contact/548.0123456789.js'),
    { stage: 'chunk', url: 'https://cdn.example/contact/548.0123456789.js', cause: 'timed out', transient: true },
  ],
  [
    'a CSS chunk that did not load',
    Object.assign(new Error('Loading CSS chunk 962 failed.\n(https://cdn.example/contact/962.css)'), {
      code: 'CSS_CHUNK_LOAD_FAILED',
      request: 'https://cdn.example/contact/962.css',
    }),
    { stage: 'chunk', url: 'https://cdn.example/contact/962.css', cause: 'could not be loaded (missing, unreachable or refused)', transient: true },
  ],
])('%s is classified', (_what, error, expected) => {
  expect(classifyFailure(error, { stage: 'entry', manifestUrl })).toEqual(expected);
});

test('a fault the loader classified itself is kept as it is', () => {
  const detail = { stage: 'manifest', url: manifestUrl, cause: 'answered HTTP 404', transient: false } as const;
  expect(classifyFailure(new RemoteFault(detail), { stage: 'chunk', manifestUrl })).toEqual(detail);
});

test('an error thrown while rendering is a render failure, first line only', () => {
  const error = new TypeError("Cannot read properties of undefined (reading 'map')\n    at ContactSection (section.js:1:99)");
  expect(classifyFailure(error, { stage: 'render', manifestUrl })).toEqual({
    stage: 'render',
    url: manifestUrl,
    cause: "threw while rendering: Cannot read properties of undefined (reading 'map')",
    transient: false,
  });
});

test('a chunk that fails to load while rendering is still a chunk failure', () => {
  expect(classifyFailure(chunkLoadError('missing', 'https://cdn.example/contact/1.js'), { stage: 'render', manifestUrl }).stage).toBe('chunk');
});

test('a network error from fetch is transient, at the stage the loader had reached', () => {
  expect(classifyFailure(new TypeError('Failed to fetch'), { stage: 'manifest', manifestUrl })).toEqual({
    stage: 'manifest',
    url: manifestUrl,
    cause: 'could not be fetched (network error)',
    transient: true,
  });
});

test('anything else keeps its stage and a short, plain cause', () => {
  const detail = classifyFailure(new RangeError('x'.repeat(500)), { stage: 'chunk', manifestUrl });
  expect(detail).toMatchObject({ stage: 'chunk', url: manifestUrl, transient: false });
  expect(detail.cause.startsWith('RangeError: xxx')).toBe(true);
  expect(detail.cause.length).toBeLessThanOrEqual(200);
  expect(classifyFailure('a thrown string', { stage: 'entry', manifestUrl }).cause).toBe('a thrown string');
});

test.each([
  [404, false],
  [403, false],
  [408, true],
  [429, true],
  [500, true],
  [503, true],
])('HTTP %i is transient: %p', (status, transient) => {
  expect(isTransientStatus(status)).toBe(transient);
});
