/** Family B's door conventions: a 1-based page with a size, parameters known by two names, reads answered on GET and POST. */
import { z } from 'zod';
import { int } from './params.ts';
import { route, type Route, type RouteDef } from './registry.ts';

/** Page size: 1 to 50, anything else is a 400. */
export const size = (fallback: number) => int(1, 50).default(fallback).meta({ default: fallback });

/** A 1-based page number. */
export const pageNo = () => int(1, 100_000);

/** The offset of a 1-based page. */
export const offsetOf = (page: number, pageSize: number): number => (page - 1) * pageSize;

/**
 * A check that a parameter known by two names (`tagId` or `categoryId`) is given once: when both are sent they must
 * agree, and one must be sent unless `optional`.
 */
export function oneName<T extends Record<string, unknown>>(
  name: keyof T & string,
  alias: keyof T & string,
  optional = false,
) {
  return (x: T, ctx: z.RefinementCtx) => {
    const a = x[name];
    const b = x[alias];
    if (a !== undefined && b !== undefined && a !== b)
      ctx.addIssue({ code: 'custom', path: [alias], message: `differs_from_${name}` });
    else if (!optional && a === undefined && b === undefined)
      ctx.addIssue({ code: 'custom', path: [name], message: 'required' });
  };
}

/** A read served on GET (query) and on POST (form or JSON body, as the rest of the family); one declaration, two routes. */
export function readRoute<I extends z.ZodType, O extends z.ZodType, A extends boolean>(
  def: Omit<RouteDef<I, O, A>, 'method' | 'family'>,
): Route[] {
  return (['GET', 'POST'] as const).map((method) => route({ ...def, method, family: 'B', readOnly: true }));
}
