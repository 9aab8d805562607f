/**
 * Services outside this site that a deployment may offer (the Windows client, the browser extension, an orders
 * page), named by the environment. Unset, or not an absolute http(s) URL: the link is not shown, never a dead end.
 */

/** The environment variable of each outside service. */
export const EXTERNAL_LINKS = {
  desktopClient: 'DESKTOP_CLIENT_URL',
  browserExtension: 'BROWSER_EXTENSION_URL',
  orders: 'ORDERS_URL',
} as const;

/** `value` when it is an absolute http(s) URL, else undefined. */
export function httpUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text || !URL.canParse(text)) return undefined;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:' ? text : undefined;
}

/** The configured address of an outside service, or undefined when this deployment has none. */
export function externalLink(
  name: keyof typeof EXTERNAL_LINKS,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  return httpUrl(env[EXTERNAL_LINKS[name]]);
}
