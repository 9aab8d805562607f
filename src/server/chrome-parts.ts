/**
 * Where a page finds the bodies of its chrome popovers and dialogs (src/pages/chrome/parts.astro): they are the same
 * on every page and hidden on load, so each page carries an empty box and the browser fetches the bodies once and keeps
 * them. The address changes with the build and with the settings the bodies show, so it may be cached as immutable.
 */
import { createHash } from 'node:crypto';
import { contentStamp, listEntries } from './content/store.ts';
import { EXTERNAL_LINKS } from './external-links.ts';

/** Settings the bodies read: a deployment that sets one gets a new address. */
const SETTINGS = [...Object.values(EXTERNAL_LINKS), 'PAYMENT_CHECKOUT_URL'];

/** Editors' content the bodies show: a publication of it gets a new address too. */
const CHROME_CONTENT = ['headerLinks', 'downloads', 'topupPackages'] as const;

let version: { stamp: string; value: string } | undefined;

/** The version of the bodies this server sends: its build, its settings and the editors' content they show. */
export function chromePartsVersion(
  env: Record<string, string | undefined> = process.env,
  stamp = contentStamp(CHROME_CONTENT),
): string {
  const make = () =>
    createHash('sha256')
      .update(typeof __SOURCE_HASH__ === 'string' ? __SOURCE_HASH__ : '')
      .update(JSON.stringify(SETTINGS.map((name) => env[name] ?? '')))
      .update(stamp)
      .digest('base64url')
      .slice(0, 12);
  if (env !== process.env) return make();
  if (version?.stamp !== stamp) version = { stamp, value: make() };
  return version.value;
}

/** Reads the editors' content the bodies show (kept per process), so that the version names what is published now. */
export async function loadChromeContent(): Promise<void> {
  await Promise.all(CHROME_CONTENT.map((c) => listEntries(c)));
}

/** The address of the bodies, for a page's `data-parts`; a prerendered page (no database at build) names the build's. */
export async function chromePartsUrl(prerendered = false): Promise<string> {
  if (!prerendered) await loadChromeContent();
  return `/chrome/parts?v=${chromePartsVersion()}`;
}
