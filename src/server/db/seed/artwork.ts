/**
 * The seeded site's own pictures, drawn as small SVGs from its rows: each video's poster and each live room's cover
 * show that video's (room's) title, channel and author, and each user's letter avatar is a character of their
 * nickname. The sample clips carry no words of their own (many videos share one), so the title lives here.
 */
import { CHANNELS, type ChannelId } from './content.ts';
import { mulberry32 } from './rng.ts';

/** Where the seed stores its pictures in the media store (served under /media/). */
export const ARTWORK_DIR = 'seed';

/** The media key of video `id`'s poster. */
export function posterKey(id: number): string {
  return `${ARTWORK_DIR}/posters/${id}.svg`;
}

/** The media key of live room `id`'s cover. */
export function liveCoverKey(id: number): string {
  return `${ARTWORK_DIR}/live/${id}.svg`;
}

/** The media key of user `id`'s letter avatar. */
export function avatarKey(id: number): string {
  return `${ARTWORK_DIR}/avatars/${id}.svg`;
}

/** The character a letter avatar shows: the nickname's first letter or ideograph. */
export function avatarChar(nickname: string): string {
  return [...nickname].find((c) => /[\p{L}\p{N}]/u.test(c)) ?? '闪';
}

/** Each channel's base hue (0-1), so a channel's posters share a family of colours. */
const CHANNEL_HUE: Record<ChannelId, number> = {
  300201: 0.96, // 娱乐: rose
  300203: 0.6, // 知识: blue
  300204: 0.07, // 美食: orange
  300205: 0.72, // 游戏: violet
  300206: 0.86, // 二次元: pink
  300207: 0.38, // 体育: green
  300208: 0.12, // 时尚: gold
  300209: 0.52, // 音乐: teal
};

const FONT = `'Noto Sans CJK SC','Noto Sans SC','PingFang SC','Hiragino Sans GB','Microsoft YaHei',sans-serif`;
const W = 540;
const H = 960;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function hex(h: number, s: number, l: number): string {
  // HSL to RGB (CSS's formula), as hex: SVG 1.1 viewers need not know hsl().
  const hue = ((h % 1) + 1) % 1;
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + hue * 12) % 12;
    const v = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

const width = (c: string) => (c.codePointAt(0)! < 0x100 ? 0.55 : 1);

/**
 * Splits `text` into lines of at most `max` ems (a CJK character is one em, other characters about half), as even as
 * the same number of lines allows, so no line is left with a single character.
 */
export function wrapTitle(text: string, max: number): string[] {
  const greedy = wrapGreedy(text, max);
  if (greedy.length < 2) return greedy;
  const total = [...text].reduce((sum, c) => sum + width(c), 0);
  const even = wrapGreedy(text, Math.min(max, Math.ceil(total / greedy.length) + 0.5));
  return even.length === greedy.length ? even : greedy;
}

function wrapGreedy(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const c of text) {
    // Closing punctuation stays at the end of its line rather than opening the next.
    if (used + width(c) > max && line !== '' && !/[，。、？！：；）》」』,.!?:;)]/.test(c)) {
      lines.push(line.trim());
      line = '';
      used = 0;
    }
    line += c;
    used += width(c);
  }
  if (line.trim() !== '') lines.push(line.trim());
  return lines;
}

/** Colours of picture `salt` in a channel: two gradient stops and an accent, varied per picture. */
function tones(channel: ChannelId, salt: number): { c0: string; c1: string; accent: string; r: () => number } {
  const r = mulberry32(salt * 2_654_435_761);
  const h = CHANNEL_HUE[channel] + (r() - 0.5) * 0.16;
  return {
    c0: hex(h, 0.62, 0.3 + r() * 0.12),
    c1: hex(h + 0.06 + r() * 0.08, 0.7, 0.5 + r() * 0.12),
    accent: hex(h + 0.5, 0.9, 0.75),
    r,
  };
}

function circles(r: () => number): string {
  return Array.from({ length: 3 }, (_, k) => {
    const cx = Math.round(r() * W);
    const cy = Math.round(r() * H);
    const radius = Math.round(90 + r() * 180);
    return `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="#fff" fill-opacity="${(0.05 + 0.03 * k).toFixed(2)}"/>`;
  }).join('');
}

/** A 540x960 title card: `badge` top right (pages put their own marks top left), the title large in the middle, `byline` under it. */
function card(channel: ChannelId, salt: number, title: string, byline: string, badge: string): string {
  const { c0, c1, accent, r } = tones(channel, salt);
  const lines = wrapTitle(title, 8.5).slice(0, 5);
  const size = lines.length > 3 ? 44 : 52;
  const lead = Math.round(size * 1.32);
  const top = 470 - ((lines.length - 1) * lead) / 2;
  const text = lines
    .map(
      (l, k) =>
        `<text x="${W / 2}" y="${Math.round(top + k * lead)}" text-anchor="middle" dominant-baseline="central">${escapeXml(l)}</text>`,
    )
    .join('');
  const bandTop = Math.round(top - lead / 2 - 40);
  const bandHeight = Math.round(lines.length * lead + 130);
  const badgeWidth = Math.round(48 + [...badge].length * 30);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="0.7" y2="1"><stop offset="0" stop-color="${c0}"/><stop offset="1" stop-color="${c1}"/></linearGradient></defs>` +
    `<rect width="${W}" height="${H}" fill="url(#g)"/>${circles(r)}` +
    `<rect y="${bandTop}" width="${W}" height="${bandHeight}" fill="#000" fill-opacity="0.2"/>` +
    `<rect x="36" y="${bandTop + 14}" width="64" height="6" rx="3" fill="${accent}"/>` +
    `<g font-family="${FONT}" fill="#fff">` +
    `<rect x="${W - 36 - badgeWidth}" y="150" width="${badgeWidth}" height="52" rx="26" fill="#000" fill-opacity="0.3"/>` +
    `<text x="${W - 36 - badgeWidth / 2}" y="176" font-size="28" text-anchor="middle" dominant-baseline="central">${escapeXml(badge)}</text>` +
    `<g font-size="${size}" font-weight="700">${text}</g>` +
    `<text x="${W / 2}" y="${Math.round(top + lines.length * lead + 16)}" font-size="28" fill-opacity="0.85" text-anchor="middle" dominant-baseline="central">${escapeXml(byline)}</text>` +
    `</g></svg>\n`
  );
}

/** Video `id`'s poster: its title, its channel and its author. */
export function posterSvg(v: { id: number; title: string; channelId: ChannelId; author: string }): string {
  return card(v.channelId, v.id, v.title, `@${v.author}`, `#${CHANNELS[v.channelId].name}`);
}

/** Live room `id`'s cover: its title, host and channel. */
export function liveCoverSvg(room: { id: number; title: string; channelId: ChannelId; host: string }): string {
  return card(
    room.channelId,
    10_000 + room.id,
    room.title,
    `@${room.host}`,
    `#${CHANNELS[room.channelId].name} · 直播`,
  );
}

/** User `id`'s 200x200 letter avatar: a character of their nickname on a gradient. */
export function avatarSvg(u: { id: number; nickname: string; channel: ChannelId }): string {
  const { c0, c1 } = tones(u.channel, 20_000 + u.id);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c0}"/></linearGradient></defs>` +
    `<rect width="200" height="200" fill="url(#g)"/>` +
    `<text x="100" y="104" font-family="${FONT}" font-size="108" font-weight="700" fill="#fff" text-anchor="middle" dominant-baseline="central">${escapeXml(avatarChar(u.nickname))}</text>` +
    `</svg>\n`
  );
}
