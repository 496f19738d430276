import { hostSharedVersions } from '../index';

test("the host's shared versions come from what is installed for it", () => {
  const versions = hostSharedVersions();
  expect(Object.keys(versions).sort()).toEqual(['@portico/shared-config', 'react', 'react-dom', 'react-dom/client', 'react/jsx-runtime']);
  expect(versions.react).toMatch(/^19\./);
});
