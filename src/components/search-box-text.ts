/** The search box's strings from the catalogue, for the header and the results page to pass to the island. */
import { t } from '../i18n/t.ts';
import type { SearchBoxText } from '../shared/search-box-text.ts';

/** Builds the box's strings; call from a page's frontmatter. */
export function searchBoxText(): SearchBoxText {
  return {
    placeholder: t('header.search.placeholder'),
    button: t('header.search.button'),
    clear: t('search.box.clear'),
    panel: t('search.box.panel'),
    suggestions: t('search.box.suggestions'),
    history: t('search.history'),
    remove: t('search.history.remove'),
    clearAll: t('search.history.clear'),
    expand: t('search.history.expand'),
    collapse: t('search.history.collapse'),
    guess: t('search.guess'),
    refresh: t('search.guess.refresh'),
    hot: t('search.hot'),
    rank: t('search.hot.rank'),
  };
}
