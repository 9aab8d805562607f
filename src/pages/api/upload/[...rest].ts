/** The Astro door to tus uploads (astro dev); server.ts serves /api/upload straight from node:http. */
import type { APIRoute } from 'astro';
import { handleUpload } from '../../../server/api/upload.ts';

export const prerender = false;

export const ALL: APIRoute = ({ request, locals }) => handleUpload(request, locals.request);
