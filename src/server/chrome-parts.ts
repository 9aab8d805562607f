/**
 * Where a page finds the bodies of its chrome popovers and dialogs (src/pages/chrome/parts.astro): they are the same
 * on every page and hidden on load, so each page carries an empty box and the browser fetches the bodies once and keeps
 * them. The address changes with the build and with the settings the bodies show, so it may be cached as immutable.
 */
import { createHash } from 'node:crypto';
import { config, type Config } from './config.ts';
import { EXTERNAL_LINKS } from './external-links.ts';

/** Settings the bodies read: a deployment that sets one gets a new address. */
const SETTINGS = [...Object.values(EXTERNAL_LINKS), 'PAYMENT_CHECKOUT_URL'] as const;

const versions = new WeakMap<Config, string>();

/** The version of the bodies a configuration's server sends: its build and its settings. */
export function chromePartsVersion(settings: Config = config()): string {
  let version = versions.get(settings);
  if (version === undefined) {
    version = createHash('sha256')
      .update(typeof __SOURCE_HASH__ === 'string' ? __SOURCE_HASH__ : '')
      .update(JSON.stringify(SETTINGS.map((name) => settings[name] ?? '')))
      .digest('base64url')
      .slice(0, 12);
    versions.set(settings, version);
  }
  return version;
}

/** The address of the bodies, for a page's `data-parts`. */
export function chromePartsUrl(): string {
  return `/chrome/parts?v=${chromePartsVersion()}`;
}
