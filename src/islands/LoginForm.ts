/** What the login panels share besides their fields: the input look, the error text of a failure, and the end of a login. */
import { t } from '../i18n/t.ts';
import { closeLogin } from '../stores/auth.ts';
import { setFlash } from '../stores/flash.ts';
import { reloadPage, takeDeletionCancelled } from '../stores/user.ts';

/** The class of every text input of the login dialog. */
export const fieldClass =
  'h-11 w-full rounded-lg border border-line bg-raised px-3 text-sm text-primary outline-none placeholder:text-muted focus:border-accent aria-[invalid=true]:border-accent';

/** The message to show for a failed request: the server's, else the generic one. */
export const errorOf = (e: unknown) => (e instanceof Error && e.message) || t('toast.failed');

/**
 * Logged in: the dialog closes itself and the page reloads so its server-rendered parts show the user. A login that
 * took back a pending 注销 says so on the reloaded page.
 */
export function finishLogin(): void {
  if (takeDeletionCancelled()) setFlash(t('account.deleteCancelled'));
  closeLogin();
  reloadPage();
}
