/** Editors' content: channel metadata, footer links, FAQ and static pages, each checked by a schema at build. */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';

const channels = defineCollection({
  loader: file('src/content/channels.yaml'),
  schema: z.object({
    id: z.string().regex(/^3002\d\d$/),
    name: z.string().min(1),
    description: z.string().min(1),
    banner: z.string().min(1),
    hashtags: z.array(z.string().min(1)).min(1).max(8),
  }),
});

const footerLinks = defineCollection({
  loader: file('src/content/footer-links.json'),
  schema: z.object({
    id: z.string(),
    title: z.string().min(1),
    order: z.number().int(),
    links: z.array(z.object({ title: z.string().min(1), href: z.string().min(1) })).min(1),
  }),
});

const faq = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/faq' }),
  schema: z.object({ question: z.string().min(1), order: z.number().int() }),
});

const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/pages' }),
  schema: z.object({ title: z.string().min(1), description: z.string().min(1) }),
});

export const collections = { channels, footerLinks, faq, pages };
