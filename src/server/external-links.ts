/**
 * Services outside this site that a deployment may offer (the Windows client, the browser extension, an orders
 * page), named by settings (config.ts, which takes only absolute http(s) URLs). Unset: the link is not shown, never a
 * dead end.
 */
import { config, type Config } from './config.ts';

/** The setting of each outside service. */
export const EXTERNAL_LINKS = {
  desktopClient: 'DESKTOP_CLIENT_URL',
  browserExtension: 'BROWSER_EXTENSION_URL',
  orders: 'ORDERS_URL',
} as const;

/** The configured address of an outside service, or undefined when this deployment has none. */
export function externalLink(name: keyof typeof EXTERNAL_LINKS, settings: Config = config()): string | undefined {
  return settings[EXTERNAL_LINKS[name]];
}
