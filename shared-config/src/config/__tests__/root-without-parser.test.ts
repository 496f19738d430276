// The package's root is the singleton the host hands every section in the
// browser (issue 50): it must carry the config's rules without its reader,
// whose schema is zod. Any module the root reaches that loads zod fails here.
// Checked to fail before the change: the providers took inMarket from the
// schema's module, which pulled zod into the singleton.
jest.mock('zod/mini', () => {
  throw new Error('zod/mini was loaded by the root of @portico/shared-config');
});

test('the root of @portico/shared-config loads without zod, and still has the rules a page reads a config by', async () => {
  const root = await import('../../index');
  expect(root.sectionGrant({}, 'contact')).toEqual({ interactive: true });
  expect(root.copyrightIn({ copyright: '© Portico', copyrightByLanguage: { id: '© Portico ID' } }, 'id')).toBe('© Portico ID');
  expect(root.isDocumentProblem({ field: '/config.json', message: 'answered HTTP 503 instead of the configuration' })).toBe(true);
  expect(root.isDocumentProblem({ field: 'remotes.contact', message: 'is missing' })).toBe(false);
  expect('parseConfig' in root).toBe(false);
});

test('the reader is where the server and the client-rendered page take it, and loads zod', async () => {
  await expect(import('../index')).rejects.toThrow('zod/mini was loaded');
});
