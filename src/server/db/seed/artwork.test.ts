/** The seed's pictures agree with their rows: posters and covers show their own title, avatars a character of the nickname. */
import { describe, expect, it } from 'vitest';
import { artworkFiles } from './artwork-files.ts';
import { avatarChar, avatarKey, avatarSvg, posterKey, wrapTitle } from './artwork.ts';
import { CHANNELS } from './content.ts';
import { loadManifest } from './manifest.ts';
import { buildPlan } from './plan.ts';

const plan = buildPlan(Date.UTC(2026, 5, 1, 12), loadManifest(), 0);
const files = new Map(artworkFiles(plan).map((f) => [f.key, f.body]));
/** The text an SVG shows, its lines joined (a title is wrapped over several). */
const shown = (svg: string) =>
  [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)]
    .map((m) => m[1]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))))
    .join('');

describe('seed artwork', () => {
  it('gives every user a letter avatar with a character of their own nickname', () => {
    for (const u of plan.users) {
      expect(u.avatar).toBe(avatarKey(u.id));
      const ch = avatarChar(u.nickname);
      expect([...u.nickname], u.nickname).toContain(ch);
      expect(shown(files.get(u.avatar)!)).toBe(ch);
    }
    expect(avatarChar('跑步的大叔')).toBe('跑');
    expect(avatarSvg({ id: 9, nickname: '跑步的大叔', channel: 300207 })).toContain('>跑</text>');
  });

  it('never doubles 的 in a nickname', () => {
    for (const u of plan.users) expect(u.nickname).not.toContain('的的');
  });

  it('gives every video a poster of its own that shows its title, channel and author', () => {
    const keys = plan.videos.map((v) => posterKey(v.id));
    expect(new Set(keys).size).toBe(plan.videos.length);
    for (const v of plan.videos) {
      const text = shown(files.get(posterKey(v.id))!);
      expect(text).toContain(wrapTitle(v.title, 8.5).join(''));
      expect(text).toContain(`#${CHANNELS[v.channelId].name}`);
      expect(text).toContain(`@${v.author.nickname}`);
    }
  });

  it('shows each live room’s own title on its cover', () => {
    for (const r of plan.liveRooms) {
      const text = shown(files.get(`seed/live/${r.id}.svg`)!);
      expect(text).toContain(r.title);
      expect(text).toContain(`@${r.host.nickname}`);
    }
  });

  it('wraps a title without losing a character, punctuation kept at the end of its line', () => {
    const title = '《逆风翻盘》第5集 这一巴掌打醒了谁';
    const lines = wrapTitle(title, 8.5);
    expect(lines.join('').replaceAll(' ', '')).toBe(title.replaceAll(' ', ''));
    for (const l of lines.slice(1)) expect(l).not.toMatch(/^[，。、？！：；）》]/);
    expect(wrapTitle('a & <b>', 8.5).join('')).toBe('a & <b>');
  });
});
