/**
 * Editors' Markdown (FAQ answers, pages) to HTML at request time, as Astro's build rendered it before (its Sätteri
 * processor: GFM, smart punctuation, heading ids such as `#直播伴侣` that links point at), then cleaned by sanitize-html
 * to an allowlist: editors write Markdown, and raw HTML (a <script>, an onclick, a javascript: link) never reaches a
 * page, whoever typed it.
 */
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import sanitizeHtml from 'sanitize-html';

let processor: ReturnType<typeof createSatteriMarkdownProcessor> | undefined;

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'span'],
    ...['ul', 'ol', 'li', 'strong', 'em', 'del', 's', 'a', 'img', 'sup', 'sub', 'section', 'input'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  allowedAttributes: {
    '*': ['id'],
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['align'],
    td: ['align'],
    // GFM task lists.
    input: ['type', 'checked', 'disabled'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Raw HTML an editor typed is dropped whole, text and all, rather than shown as markup.
  disallowedTagsMode: 'discard',
};

/** The HTML of a Markdown body, safe to place in a page. */
export async function renderMarkdown(markdown: string): Promise<string> {
  processor ??= createSatteriMarkdownProcessor({ syntaxHighlight: false });
  const { code } = await (await processor).render(markdown);
  return sanitizeHtml(code, ALLOWED);
}
