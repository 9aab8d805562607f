/** Draws the QR code the login dialog shows: the API answers it as SVG markup beside the ticket. */
import { encode } from 'uqr';
import { t } from '../../i18n/t.ts';
import { invalid } from '../services/errors.ts';

/** A QR code of `url` as an SVG string (dark modules #161823 on white, 4-module quiet zone). */
export function qrSvg(url: string, label = t('login.qr.image')): string {
  if (typeof url !== 'string' || url === '' || url.length > 2000) throw invalid('error.qrContent');
  const { data, size } = encode(url, { ecc: 'M', border: 4 });
  // One path of horizontal runs keeps the SVG small (a 43-char ticket URL: ~2 KB).
  let d = '';
  data.forEach((line, y) => {
    for (let x = 0; x < size; x++) {
      if (!line[x]) continue;
      let run = 1;
      while (x + run < size && line[x + run]) run++;
      d += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  });
  const escaped = label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escaped}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#161823" d="${d}"/></svg>`
  );
}
