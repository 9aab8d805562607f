/** The studio API (Family B) through the one API client: its paths carry /api, its answers their `data`. */
import { apiGet, apiPost, type CallOptions, type Params } from './api.ts';

// STUDIO_API names full paths; the client adds its own base.
const relative = (path: string) => path.replace(/^\/api(?=\/)/, '');

/** GET a studio path; resolves to the envelope's data. */
export async function studioGet<T>(path: string, query: Params = {}, options: CallOptions = {}): Promise<T> {
  return (await apiGet<{ data: T }>(relative(path), query, options)).data;
}

/** POST a studio path form-encoded; resolves to the envelope's data. */
export async function studioPost<T>(path: string, form: Params = {}, options: CallOptions = {}): Promise<T> {
  return (await apiPost<{ data: T }>(relative(path), form, options)).data;
}
