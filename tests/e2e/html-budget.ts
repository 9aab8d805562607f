/**
 * How many raw bytes of HTML a page may send: the shell (sidebar, header, popover boxes) comes with every page, so what
 * it weighs is paid on every navigation. bench/first-load.mjs prints the same budgets beside its figures.
 */
export const HTML_BUDGET = 60 * 1024;
/** The logged-out 我 page is the shell and a login prompt, nothing more. */
export const HTML_BUDGET_LOGIN_PROMPT = 30 * 1024;
/**
 * Pages still over HTML_BUDGET, held to the ceiling they have now so that they cannot grow. The video page sends its
 * first 20 comments and 12 related videos twice, as markup and again as their islands' props (about 24 KB).
 */
const CEILINGS: [prefix: string, bytes: number][] = [['/video/', 88 * 1024]];

/** The budget of `route` (a path as routes.ts gives it), for a logged-out or a logged-in visitor. */
export function htmlBudget(route: string, loggedIn: boolean): number {
  if (route === '/user/self' && !loggedIn) return HTML_BUDGET_LOGIN_PROMPT;
  return CEILINGS.find(([prefix]) => route.startsWith(prefix))?.[1] ?? HTML_BUDGET;
}
