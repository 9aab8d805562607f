/** The Astro door to the API (astro dev); server.ts serves /api straight from node:http with the same router. */
import type { APIRoute } from 'astro';
import { handleApi } from '../../server/api/router.ts';
import { clientAddress as fromProxy } from '../../server/http/client-address.ts';

export const prerender = false;

export const ALL: APIRoute = ({ request, clientAddress }) => {
  let address: string | undefined;
  try {
    address = clientAddress;
  } catch {
    // Astro throws when the adapter cannot tell the address; logs just go without it.
  }
  return handleApi(request, { clientAddress: fromProxy(address, request.headers.get('x-forwarded-for')) });
};
