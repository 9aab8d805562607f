/**
 * Data an island is server-rendered from, sent once in the page as a `<script type="application/json">` instead of in
 * the island's props. Astro serializes props as tagged JSON (each value wrapped as `[0,…]`) escaped into an HTML
 * attribute (each quote `&quot;`): about twice the bytes of the JSON itself.
 *
 * The island takes a `PageData` prop. On the server its `read` hands the data to the render; a function is not JSON,
 * so Astro serializes it as null, and in the browser the island reads the block named by `id`. The block is data, never
 * run, so the page's Content-Security-Policy (which allows scripts by hash) has nothing to allow.
 */
export interface PageData<T> {
  /** The id of the page's `<script type="application/json">` holding the data. */
  id: string;
  /** The data itself, on the server only. */
  read?: (() => T) | null;
}

/** A prop for an island rendered from `value`; the page renders `pageDataJson(value)` into `<script id={id}>`. */
export function pageData<T>(id: string, value: T): PageData<T> {
  return { id, read: () => value };
}

/** The island's data: on the server from the prop, in the browser from the page's block. */
export function readPageData<T>(data: PageData<T>): T {
  if (data.read) return data.read();
  const text = document.getElementById(data.id)?.textContent;
  if (!text) throw new Error(`page data #${data.id} is missing`);
  return JSON.parse(text) as T;
}

/** JSON for a `<script type="application/json">`: `<` escaped, so no `</script>` or `<!--` in the data can end or bend the block. */
export function pageDataJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}
