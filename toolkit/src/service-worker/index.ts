export { unregisterServiceWorkers, type ServiceWorkerRegistrations } from './unregister-service-workers';
