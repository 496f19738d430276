import type { z } from 'zod';

/**
 * One route of an API, declared once: its method and path, the zod schemas
 * of what it takes (path parameters, query, body) and of what it answers.
 * The server registers the route from it (routeSchema) and a client calls
 * it (apiClient), so both read the same shapes.
 */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify's pattern: `/api/sections/:section/active`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** What a success answers (the refusals are `{ error, …fields }`, HttpRefusal). */
  answer: z.ZodType;
}

/** Declares a route, keeping its exact type. */
export function apiRoute<const R extends ApiRoute>(route: R): R {
  return route;
}

/** What a route answers once parsed (the client's side). */
export type AnswerOf<R extends ApiRoute> = z.output<R['answer']>;
/** What a route's handler may answer (the server's side, before any transform). */
export type AnswerIn<R extends ApiRoute> = z.input<R['answer']>;
