/** What the search box island is handed to say: its strings, made from the catalogue by the page that renders it. */

/** The box's strings, from the catalogue (passed by the server so the catalogue stays out of every page's first load). */
export interface SearchBoxText {
  placeholder: string;
  button: string;
  clear: string;
  panel: string;
  suggestions: string;
  history: string;
  remove: string;
  clearAll: string;
  expand: string;
  collapse: string;
  guess: string;
  refresh: string;
  hot: string;
  /** '第{rank}名' */
  rank: string;
}
