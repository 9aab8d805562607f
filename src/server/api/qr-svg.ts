/** Draws the QR code the login dialog shows: the API answers it as SVG markup beside the ticket. */
import { t } from '../../i18n/t.ts';
import { qrPath } from '../../shared/qr.ts';
import { invalid } from '../errors.ts';

/** A QR code of `url` as an SVG string (dark modules #161823 on white, 4-module quiet zone). */
export function qrSvg(url: string, label = t('login.qr.image')): string {
  if (typeof url !== 'string' || url === '' || url.length > 2000) throw invalid('error.qrContent');
  const { size, d } = qrPath(url);
  const escaped = label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escaped}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#161823" d="${d}"/></svg>`
  );
}
