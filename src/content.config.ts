/** Editors' content: channel metadata, FAQ and static pages, each checked by a schema at build (footer links: services/footer-links.ts, read per request). */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { zhCN } from './i18n/zh-CN.ts';

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

const faq = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/faq' }),
  schema: z.object({ question: z.string().min(1), order: z.number().int() }),
});

const pages = defineCollection({
  loader: glob({ pattern: '*.md', base: 'src/content/pages' }),
  schema: z.object({ title: z.string().min(1), description: z.string().min(1) }),
});

// Header and settings chrome: link targets and versions live here, their labels in the string catalogue.
const catalogueKey = z.string().refine((k) => k in zhCN, { message: 'not a key of src/i18n/zh-CN.ts' });

/**
 * The desktop client the 客户端 popover names. Where it downloads from is a deployment's setting (DESKTOP_CLIENT_URL,
 * src/server/external-links.ts), not content: a placeholder address here was a dead end.
 */
const downloads = defineCollection({
  loader: file('src/content/downloads.json'),
  schema: z.object({
    id: z.enum(['desktop']),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    arch: z.string().min(1),
  }),
});

/** The 投稿 popover's creator links and the 更多 popover's secondary links. */
const headerLinks = defineCollection({
  loader: file('src/content/header-links.json'),
  schema: z.object({
    id: z.string(),
    group: z.enum(['post', 'more']),
    order: z.number().int(),
    label: catalogueKey,
    href: z.string().min(1),
  }),
});

/** 充钻石 packages; prices in fen so no float ever reaches a payment. */
const topupPackages = defineCollection({
  loader: file('src/content/topup-packages.json'),
  schema: z.object({
    id: z.string(),
    order: z.number().int(),
    diamonds: z.number().int().positive(),
    priceFen: z.number().int().positive(),
    bonus: z.number().int().positive().optional(),
  }),
});

export const collections = { channels, faq, pages, downloads, headerLinks, topupPackages };
