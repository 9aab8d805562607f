/**
 * How many raw bytes of HTML a page may send: the shell (sidebar, header, popover boxes) comes with every page, so what
 * it weighs is paid on every navigation. bench/first-load.mjs prints the same budgets beside its figures.
 */
export const HTML_BUDGET = 60 * 1024;
/** The logged-out 我 page is the shell and a login prompt, nothing more. */
export const HTML_BUDGET_LOGIN_PROMPT = 30 * 1024;
/** The budget of `route` (a path as routes.ts gives it), for a logged-out or a logged-in visitor. */
export function htmlBudget(route: string, loggedIn: boolean): number {
  return route === '/user/self' && !loggedIn ? HTML_BUDGET_LOGIN_PROMPT : HTML_BUDGET;
}
