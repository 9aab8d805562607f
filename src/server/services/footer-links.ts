/**
 * The footer's link blocks, from the editors' src/content/footer-links.json, as douyin.com's seo/inner/link
 * `link_data` entries: the pages' Footer and the API read this one answer, so they never disagree.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { config } from '../config.ts';

const footerFile = z.array(
  z.object({
    id: z.string().min(1),
    title: z.string().min(1),
    order: z.number().int(),
    links: z.array(z.object({ title: z.string().min(1), href: z.string().min(1) })).min(1),
  }),
);

/** One block of the editors' file. */
export type FooterBlock = z.infer<typeof footerFile>[number];

/** One block as douyin.com names it: its links in `link_list`, each an `anchor` (the text) and a `url`. */
export interface LinkData {
  id: string;
  title: string;
  link_list: { anchor: string; url: string }[];
}

/** FOOTER_LINKS_FILE, else the file beside this source (Node, Vitest), else under the cwd (the built server's chunks sit elsewhere). */
export function footerLinksPath(): string {
  const configured = config().FOOTER_LINKS_FILE;
  if (configured) return configured;
  const besideSource = fileURLToPath(new URL('../../content/footer-links.json', import.meta.url));
  return existsSync(besideSource) ? besideSource : path.resolve('src/content/footer-links.json');
}

/** Reads and validates the editors' file. */
export async function readFooterFile(file = footerLinksPath()): Promise<FooterBlock[]> {
  return footerFile.parse(JSON.parse(await readFile(file, 'utf8')));
}

// Read per call (a few hundred bytes) so an editor's change shows without a restart.
let source: () => Promise<FooterBlock[]> = () => readFooterFile();

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
