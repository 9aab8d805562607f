/** Family A seo/inner/link: the footer's link blocks, from the editors' file that the pages' Footer also reads. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { okA } from '../envelope.ts';
import { route } from '../registry.ts';
import { bodyA } from '../schemas.ts';

export interface FooterBlock {
  id: string;
  title: string;
  order: number;
  links: { title: string; href: string }[];
}

const footerFile = z.array(
  z.object({
    id: z.string(),
    title: z.string().min(1),
    order: z.number().int(),
    links: z.array(z.object({ title: z.string().min(1), href: z.string().min(1) })).min(1),
  }),
);

// Read per request (a few hundred bytes) so an editor's change shows without a restart; the API may run outside Astro.
let source: () => Promise<FooterBlock[]> = async () =>
  footerFile.parse(JSON.parse(await readFile(process.env.FOOTER_LINKS_FILE ?? fileURLToPath(new URL('../../../content/footer-links.json', import.meta.url)), 'utf8')));

/** Sets where footer links come from (tests pass their own). */
export function setFooterLinks(load: () => Promise<FooterBlock[]>): void {
  source = load;
}

export const seoRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/seo/inner/link/',
    family: 'A',
    auth: false,
    summary: 'Footer link blocks',
    input: z.object({}),
    response: bodyA({
      data: z.array(z.object({ id: z.string(), title: z.string(), links: z.array(z.object({ title: z.string(), url: z.string() })) })),
    }),
    handler: async () => {
      const blocks = [...(await source())].sort((a, b) => a.order - b.order);
      return okA({ data: blocks.map((b) => ({ id: b.id, title: b.title, links: b.links.map((l) => ({ title: l.title, url: l.href })) })) });
    },
  }),
];
