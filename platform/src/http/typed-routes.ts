import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify';
import type { z } from 'zod';
import { HttpRefusal } from './json-reply';

/**
 * One route of an API, declared once: its method and path, the zod schemas
 * of what it takes (path parameters, query, body) and of what it answers.
 * The server registers the route from it (routeSchema) and a client calls
 * it (apiClient), so both read the same shapes.
 */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'DELETE';
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

/** Fastify's route schema of a declared route: each part validated with zod (zodValidatorCompiler). */
export function routeSchema<R extends ApiRoute>(route: R): { params?: R['params']; querystring?: R['query']; body?: R['body']; response: { '2xx': R['answer'] } } {
  return {
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    ...(route.body ? { body: route.body } : {}),
    response: { '2xx': route.answer },
  };
}

/** Fastify's types for routes whose schemas are zod's: the request typed by what they parse to. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/**
 * The first problem zod finds, as the APIs word a refusal: `field: what is
 * wrong` (or the message alone when it names its field already), with
 * `field` beside it.
 */
export function refusalOf(error: z.ZodError): HttpRefusal {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.');
  if (!field) return new HttpRefusal(400, issue.message);
  const message = issue.message.startsWith(`${field} `) ? issue.message : `${field}: ${issue.message}`;
  return new HttpRefusal(400, message, { field });
}

/**
 * Validates each part of a request with its zod schema; a refusal is a 400
 * in the APIs' words (refusalOf). A body that is absent is `{}`: a request
 * with nothing to say says nothing.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    const result = schema.safeParse(httpPart === 'body' && data === null ? {} : data);
    return result.success ? { value: result.data } : { error: refusalOf(result.error) };
  };
};

/**
 * Answers go out as their handler made them: a route's answer schema is its
 * documentation and the client's check, never a filter on the server.
 */
export const jsonSerializerCompiler: FastifySerializerCompiler<z.ZodType> = () => (data: unknown) => JSON.stringify(data);
