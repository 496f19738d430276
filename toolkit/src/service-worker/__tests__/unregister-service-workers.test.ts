import { unregisterServiceWorkers } from '../unregister-service-workers';

// jsdom has no service workers; these fakes stand in for the browser's
// registrations, whose unregister calls are what the helper must make.
function registration(unregister: () => Promise<boolean>): ServiceWorkerRegistration {
  return { unregister: jest.fn(unregister) } as Partial<ServiceWorkerRegistration> as ServiceWorkerRegistration;
}

function installServiceWorkers(getRegistrations: () => Promise<readonly ServiceWorkerRegistration[]>) {
  const container = { getRegistrations: jest.fn(getRegistrations), register: jest.fn() };
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
  return container;
}

afterEach(() => {
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

test('unregisters every registration an older version left, and registers none', async () => {
  const old = [registration(async () => true), registration(async () => true)];
  const container = installServiceWorkers(async () => old);

  await expect(unregisterServiceWorkers()).resolves.toBe(2);

  for (const each of old) expect(each.unregister).toHaveBeenCalledTimes(1);
  expect(container.register).not.toHaveBeenCalled();
});

test('a registration that fails to unregister is passed over silently, and the others still go', async () => {
  const failing = registration(async () => {
    throw new Error('InvalidStateError');
  });
  const refused = registration(async () => false);
  const fine = registration(async () => true);
  installServiceWorkers(async () => [failing, refused, fine]);
  const errors = jest.spyOn(console, 'error');

  await expect(unregisterServiceWorkers()).resolves.toBe(1);

  expect(fine.unregister).toHaveBeenCalledTimes(1);
  expect(errors).not.toHaveBeenCalled();
});

test('a refused getRegistrations is ignored', async () => {
  installServiceWorkers(async () => {
    throw new DOMException('The operation is insecure.', 'SecurityError');
  });

  await expect(unregisterServiceWorkers()).resolves.toBe(0);
});

test('a browser without service workers is left alone', async () => {
  expect('serviceWorker' in navigator).toBe(false);

  await expect(unregisterServiceWorkers()).resolves.toBe(0);
});

test('nothing registered, nothing to do', async () => {
  installServiceWorkers(async () => []);

  await expect(unregisterServiceWorkers()).resolves.toBe(0);
});
