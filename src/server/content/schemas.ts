/**
 * The editors' collections: one zod schema per collection for an entry's data (its id and Markdown body apart). The
 * live collections (src/live.config.ts), the console's saves, `npm run content:import` and the seed all check entries
 * with these, so an edit the pages could not show is refused where it is made, naming its field.
 */
import { z } from 'zod';
import { zhCN } from '../../i18n/zh-CN.ts';
import { CONTENT_ID_PATTERN, type ContentCollection } from '../../shared/staff.ts';

// Header and settings chrome: link targets and versions live here, their labels in the string catalogue.
const catalogueKey = z.string().refine((k) => k in zhCN, { message: 'not a key of src/i18n/zh-CN.ts' });

/** A link target: a path on this site or an http(s) address; never javascript: or data:. */
const href = z
  .string()
  .min(1)
  .max(500)
  .regex(/^(\/(?!\/)|https?:\/\/)\S*$/, { message: '链接须以 / 或 http(s):// 开头' });

/** Text of one line: no control characters (PostgreSQL refuses NUL; line breaks have no place in a title). */
const line = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, { message: '不能包含控制字符' });

/** Channel metadata shown on /channel/{id}. */
export const channelSchema = z.object({
  name: line(20),
  description: line(200),
  /** Media path of the channel page's banner (under /media). */
  banner: z
    .string()
    .regex(/^[\w./-]+\.(webp|png|jpg|jpeg|svg)$/i)
    .refine((p) => !p.includes('..')),
  hashtags: z.array(line(20)).min(1).max(8),
});

/** One FAQ question; its answer is the entry's Markdown body. */
export const faqSchema = z.object({ question: line(100), order: z.number().int().min(0).max(10_000) });

/** A page of editors' prose (关于, 业务合作, the creator pages); its text is the entry's Markdown body. */
export const pageSchema = z.object({ title: line(60), description: line(200) });

/** The desktop client the 客户端 popover names (where it downloads from is DESKTOP_CLIENT_URL, a setting). */
export const downloadSchema = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  arch: line(20),
});

/** The 投稿 popover's creator links and the 更多 popover's secondary links. */
export const headerLinkSchema = z.object({
  group: z.enum(['post', 'more']),
  order: z.number().int().min(0).max(10_000),
  label: catalogueKey,
  href,
});

/** One block of footer links. */
export const footerLinkSchema = z.object({
  title: line(20),
  order: z.number().int().min(0).max(10_000),
  links: z
    .array(z.object({ title: line(20), href }))
    .min(1)
    .max(20),
});

/** 充钻石 packages; prices in fen so no float ever reaches a payment. */
export const topupPackageSchema = z.object({
  order: z.number().int().min(0).max(10_000),
  diamonds: z.number().int().positive().max(10_000_000),
  priceFen: z.number().int().positive().max(100_000_000),
  bonus: z.number().int().positive().max(10_000_000).optional(),
});

/** Each collection's data schema. */
export const CONTENT_SCHEMAS = {
  channels: channelSchema,
  faq: faqSchema,
  pages: pageSchema,
  downloads: downloadSchema,
  headerLinks: headerLinkSchema,
  footerLinks: footerLinkSchema,
  topupPackages: topupPackageSchema,
} as const satisfies Record<ContentCollection, z.ZodType>;

export type ContentData<C extends ContentCollection> = z.output<(typeof CONTENT_SCHEMAS)[C]>;

/** Entry ids a collection accepts (the site links to a fixed set of channels, pages and downloads). */
export const CONTENT_IDS: Record<ContentCollection, z.ZodType<string>> = {
  channels: z.string().regex(/^3002\d\d$/),
  faq: z.string().regex(CONTENT_ID_PATTERN),
  pages: z.string().regex(CONTENT_ID_PATTERN),
  downloads: z.enum(['desktop']),
  headerLinks: z.string().regex(CONTENT_ID_PATTERN),
  footerLinks: z.string().regex(CONTENT_ID_PATTERN),
  topupPackages: z.string().regex(CONTENT_ID_PATTERN),
};

/** The first problem of a failed check: the field it is about (dotted path) and why, in Chinese. */
export interface ContentProblem {
  field: string;
  reason: string;
}

/** Checks `data` against its collection's schema; the parsed data, or the first problem. */
export function checkContent<C extends ContentCollection>(
  collection: C,
  data: unknown,
): { ok: true; data: ContentData<C> } | { ok: false; problem: ContentProblem } {
  const parsed = CONTENT_SCHEMAS[collection].safeParse(data, { error: z.locales.zhCN().localeError });
  if (parsed.success) return { ok: true, data: parsed.data as ContentData<C> };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: { field: issue.path.join('.') || 'data', reason: issue.message } };
}
