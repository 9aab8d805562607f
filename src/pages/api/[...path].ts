/** The Astro door to the API (astro dev); server.ts serves /api straight from node:http with the same router. */
import type { APIRoute } from 'astro';
import { handleApi } from '../../server/api/router.ts';

export const prerender = false;

export const ALL: APIRoute = ({ request, locals }) => handleApi(request, { context: locals.request });
