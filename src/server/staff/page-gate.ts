/**
 * The staff pages' gate (/admin/*): the same rule as the staff API's door. A visitor or a member without the role gets
 * the site's 404, as for a page that does not exist; staff whose last authentication is older than STAFF_REAUTH_MS
 * get the re-authentication form (401) instead of the page. Every answer is personal and kept out of search engines.
 */
import { hasRole, type StaffRole } from '../../shared/staff.ts';
import { pageSessionToken } from '../http/session-cookie.ts';
import { staffSession, type StaffSession } from './session.ts';

export type StaffGate =
  { state: 'hidden' } | { state: 'reauth'; session: StaffSession } | { state: 'ok'; session: StaffSession };

interface PageContext {
  request: Request;
  response: { status?: number; headers: Headers };
}

/** Decides what a staff page shows for this request, and sets its status and headers accordingly. */
export async function staffPage(page: PageContext, role: StaffRole | 'any'): Promise<StaffGate> {
  page.response.headers.set('cache-control', 'private, no-store');
  page.response.headers.set('x-robots-tag', 'noindex, nofollow');
  const session = await staffSession(pageSessionToken(page.request.headers));
  if (!session || !hasRole(session.roles, role)) {
    page.response.status = 404;
    return { state: 'hidden' };
  }
  if (!session.recent) {
    page.response.status = 401;
    return { state: 'reauth', session };
  }
  return { state: 'ok', session };
}
