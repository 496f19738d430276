export { ROUTES, UNDESCRIBED_ROUTE_KEYS, WORD_ROUTE_KEYS, type RouteKey, type RoutePath } from './routes';
