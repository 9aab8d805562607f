/**
 * Editors' content, read at request time from the database (seeded from src/content; edited in the staff console), so
 * a change shows without a rebuild. Each collection is checked by the schema its saves are checked by.
 */
import { defineLiveCollection } from 'astro:content';
import { contentLoader } from './server/content/live-loader.ts';
import { CONTENT_SCHEMAS } from './server/content/schemas.ts';

export const collections = {
  channels: defineLiveCollection({ loader: contentLoader('channels'), schema: CONTENT_SCHEMAS.channels }),
  faq: defineLiveCollection({ loader: contentLoader('faq'), schema: CONTENT_SCHEMAS.faq }),
  pages: defineLiveCollection({ loader: contentLoader('pages'), schema: CONTENT_SCHEMAS.pages }),
  downloads: defineLiveCollection({ loader: contentLoader('downloads'), schema: CONTENT_SCHEMAS.downloads }),
  headerLinks: defineLiveCollection({ loader: contentLoader('headerLinks'), schema: CONTENT_SCHEMAS.headerLinks }),
  footerLinks: defineLiveCollection({ loader: contentLoader('footerLinks'), schema: CONTENT_SCHEMAS.footerLinks }),
  topupPackages: defineLiveCollection({
    loader: contentLoader('topupPackages'),
    schema: CONTENT_SCHEMAS.topupPackages,
  }),
};
