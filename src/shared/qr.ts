/** QR codes as one SVG path, for the login dialog (drawn by the server) and the share panel (drawn in the browser). */
import { encode } from 'uqr';

export interface QrPath {
  /** Modules per side, the 4-module quiet zone included. */
  size: number;
  /** The dark modules as one path of horizontal runs (a 43-character URL: about 2 KB). */
  d: string;
}

/** The QR code of `text` (error correction M, a 4-module quiet zone). */
export function qrPath(text: string): QrPath {
  const { data, size } = encode(text, { ecc: 'M', border: 4 });
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
  return { size, d };
}
