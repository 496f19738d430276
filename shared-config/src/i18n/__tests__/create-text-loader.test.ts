import { createTextLoader } from '../create-text-loader';

test('each language is imported once, on first use, and the same promise is handed out after', async () => {
  const imports = { en: jest.fn(() => Promise.resolve('hello')), id: jest.fn(() => Promise.resolve('halo')) };
  const load = createTextLoader(imports);

  expect(imports.en).not.toHaveBeenCalled();
  expect(load('en')).toBe(load('en'));
  await expect(load('en')).resolves.toBe('hello');
  expect(imports.en).toHaveBeenCalledTimes(1);
  expect(imports.id).not.toHaveBeenCalled();
  await expect(load('id')).resolves.toBe('halo');
});

test('a failed import is forgotten, so asking again really retries', async () => {
  const en = jest.fn<Promise<string>, []>().mockRejectedValueOnce(new Error('chunk lost')).mockResolvedValue('hello');
  const load = createTextLoader({ en, id: () => Promise.resolve('halo') });

  await expect(load('en')).rejects.toThrow('chunk lost');
  await expect(load('en')).resolves.toBe('hello');
  expect(en).toHaveBeenCalledTimes(2);
});
