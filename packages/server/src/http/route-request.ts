import type {
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/**
 * A types-only type provider over the route schemas. The schemas document the API; nothing checks a
 * request against them (the app's validator compiler passes every value through, and the handler's
 * field rules check, with the spec's texts). So a part is typed as what the parsers make of it, an
 * object, and a field the schema names as `unknown` until a field rule has read it.
 */
export interface SchemaFields extends FastifyTypeProvider {
  readonly validator: this['schema'] extends { readonly properties: infer Fields }
    ? { readonly [Name in keyof Fields]?: unknown }
    : Readonly<Record<string, unknown>>;
  readonly serializer: unknown;
}

/** The names of a route's path parameters: `/users/:userId/session` has `userId`. */
type PathParameterNames<Url extends string> = Url extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameterNames<`/${Rest}`>
  : Url extends `${string}:${infer Name}`
    ? Name
    : never;

/** The router hands every path parameter over as a string, whatever the schema says. */
type PathParameters<Url extends string> = string extends Url
  ? Readonly<Record<string, string>>
  : { readonly [Name in PathParameterNames<Url>]: string };

/** What the body parsers make of a body (a form, any JSON value), or nothing: the schema is not checked. */
export type RequestBody =
  | Readonly<Record<string, unknown>>
  | readonly unknown[]
  | string
  | number
  | boolean
  | null
  | undefined;

/** The request a route's handler gets: path parameters from its URL, the other parts from its schema. */
export type RouteRequest<
  Url extends string = string,
  Schema extends FastifySchema = FastifySchema,
> = FastifyRequest<
  { Params: PathParameters<Url>; Body: RequestBody },
  RawServerDefault,
  RawRequestDefaultExpression,
  Schema,
  SchemaFields
>;
