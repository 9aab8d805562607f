/**
 * Window events that wake `client:interact` islands, kept apart from the directive (an inline script in every page)
 * so stores can name them without the directive loading any store.
 */

/** The session of a page rendered for a viewer has ended: every island wakes to show the page as anyone sees it. */
export const SESSION_ENDED_EVENT = 'sy:session-ended';
