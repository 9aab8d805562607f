/**
 * The footer's link blocks, from the editors' `footerLinks` content (seeded from src/content/footer-links.json), as
 * douyin.com's seo/inner/link `link_data` entries: the pages' Footer and the API read this one answer, so they never
 * disagree.
 */
import { listEntries } from '../content/store.ts';
import type { ContentData } from '../content/schemas.ts';

/** One block of the editors' content. */
export type FooterBlock = { id: string } & ContentData<'footerLinks'>;

/** One block as douyin.com names it: its links in `link_list`, each an `anchor` (the text) and a `url`. */
export interface LinkData {
  id: string;
  title: string;
  link_list: { anchor: string; url: string }[];
}

/** The published blocks (content/store.ts drops its copy at every publication, so an edit shows at once). */
export async function publishedFooterBlocks(): Promise<FooterBlock[]> {
  return (await listEntries('footerLinks')).map((e) => ({ id: e.id, ...(e.data as ContentData<'footerLinks'>) }));
}

let source: () => Promise<FooterBlock[]> = publishedFooterBlocks;

/** Sets where footer links come from (tests pass their own). */
export function setFooterLinks(load: () => Promise<FooterBlock[]>): void {
  source = load;
}

/** The blocks in their editors' order, shaped as `link_data`. */
export async function footerLinkData(): Promise<LinkData[]> {
  const blocks = [...(await source())].sort((a, b) => a.order - b.order);
  return blocks.map((b) => ({
    id: b.id,
    title: b.title,
    link_list: b.links.map((l) => ({ anchor: l.title, url: l.href })),
  }));
}
