import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyServerOptions, FastifyTypeProvider } from 'fastify';
import type { z } from 'zod';
import type { ApiRoute } from '@portico/control-contract';
import { HttpRefusal } from './json-reply';

/** The schema a route declares for one part of a request, or undefined when it takes none. */
type PartOf<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType } ? S : undefined;

/** Fastify's route schema of a declared route, typed part by part (ZodTypeProvider reads it). */
export interface RouteSchemaOf<R extends ApiRoute> {
  params: PartOf<R, 'params'>;
  querystring: PartOf<R, 'query'>;
  body: PartOf<R, 'body'>;
  response: { '2xx': R['answer'] };
}

/** Fastify's route schema of a declared route: each part validated with zod (zodValidatorCompiler). */
export function routeSchema<R extends ApiRoute>(route: R): RouteSchemaOf<R> {
  // A part the route does not declare is absent, not undefined: Fastify validates every key it is given.
  return {
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    ...(route.body ? { body: route.body } : {}),
    response: { '2xx': route.answer },
  } as RouteSchemaOf<R>;
}

/** The method, URL and schema of a Fastify route registered from its declaration: `app.route({ ...declared(route), handler })`. */
export function declared<R extends ApiRoute>(route: R): { method: R['method']; url: string; schema: RouteSchemaOf<R> } {
  return { method: route.method, url: route.path, schema: routeSchema(route) };
}

/** Fastify's types for routes whose schemas are zod's: the request typed by what they parse to. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/**
 * The first problem zod finds, as the APIs word a refusal, with `field`
 * beside it: a body's `note: at most 1000 characters`, a query's `hours
 * must be a whole number from 1 to 720`.
 */
export function refusalOf(error: z.ZodError, part: 'body' | 'query' = 'body'): HttpRefusal {
  const issue = error.issues[0]!;
  const field = issue.path.map(String).join('.');
  if (!field) return new HttpRefusal(400, issue.message);
  return new HttpRefusal(400, `${field}${part === 'query' ? ' ' : ': '}${issue.message}`, { field });
}

/**
 * Validates each part of a request with its zod schema; a refusal is a 400
 * in the APIs' words (refusalOf). A body that is absent is `{}`: a request
 * with nothing to say says nothing.
 */
const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    const result = schema.safeParse(httpPart === 'body' && data === null ? {} : data);
    return result.success ? { value: result.data } : { error: refusalOf(result.error, httpPart === 'querystring' ? 'query' : 'body') };
  };
};

/**
 * Answers go out as their handler made them: a route's answer schema is its
 * documentation and the client's check, never a filter on the server.
 */
const jsonSerializerCompiler: FastifySerializerCompiler<z.ZodType> = () => (data: unknown) => JSON.stringify(data);

/**
 * Fastify's `schemaController` option for every app of ours: schemas are
 * zod's, compiled by the two compilers above. Given as the app's compiler
 * factories, Fastify never loads its JSON-schema ones (Ajv and
 * fast-json-stringify), which it otherwise requires as each app is made
 * whether or not a route uses them: 0.3-0.7 s of every start (issue 47).
 */
export const zodSchemaController: SchemaController = {
  compilersFactory: {
    // Fastify types these factories for Ajv's schemas; the routes' are zod's.
    buildValidator: (() => zodValidatorCompiler) as unknown as CompilerFactories['buildValidator'],
    buildSerializer: (() => jsonSerializerCompiler) as unknown as CompilerFactories['buildSerializer'],
  },
};
type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type CompilerFactories = NonNullable<SchemaController['compilersFactory']>;
