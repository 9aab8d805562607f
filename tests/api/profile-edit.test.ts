/** 编辑资料 (commit/user): each field's success and refusals, pictures checked by content and stored as WebP, others see it at once. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, NICKNAME_MAX, SIGNATURE_MAX } from '../../src/shared/profile-edit.ts';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';
const EDIT = `${W}/commit/user/`;

let dir: string;
const saved = process.env.DATA_DIR;
let users: { id: number; sec_uid: string }[];
let next = 0;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'profile-edit-'));
  process.env.DATA_DIR = dir;
  const { rows } = await ctx.db.execute(
    sql`select id, sec_uid from users where not is_demo order by id limit 45 offset 5`,
  );
  users = rows as typeof users;
});

afterAll(() => {
  if (saved === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved;
  rmSync(dir, { recursive: true, force: true });
});

/** A user of its own for each test, so rate limits and pictures never cross. */
async function someone(): Promise<{ id: number; secUid: string; token: string }> {
  const u = users[next++]!;
  return { id: u.id, secUid: u.sec_uid, token: await tokenFor(u.id) };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 80 } } })
    .png()
    .toBuffer();

function form(
  fields: Record<string, string | number>,
  files: Record<string, { bytes: Uint8Array; name: string; type: string }> = {},
): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, String(v));
  for (const [k, f] of Object.entries(files))
    body.set(k, new File([f.bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type }));
  return body;
}

const edit = (token: string, fields: Record<string, string | number>) =>
  call('POST', `/api${EDIT}`, { token, form: fields });
const upload = (token: string, body: FormData) => call('POST', `/api${EDIT}`, { token, body });
const mediaFile = (url: string) => path.join(dir, 'media', decodeURIComponent(url.replace(/^\/media\//, '')));

describe('nickname', () => {
  it('saves a trimmed nickname that others, comments and search see at once', async () => {
    const me = await someone();
    const body = await ok('POST', EDIT, { token: me.token, form: { nickname: '  新名字 小明  ' } });
    expect(body.user.nickname).toBe('新名字 小明');
    const other = await ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: me.secUid } });
    expect(other.user.nickname).toBe('新名字 小明');
    // A comment they wrote shows the new name wherever it is listed.
    const video = await one<{ id: number }>(
      ctx,
      sql`
      insert into comments (video_id, user_id, text)
        select id, ${me.id}, '改名之后的评论' from videos where deleted_at is null and visibility = 'public' order by id limit 1
      returning video_id as id`,
    );
    const list = await ok('GET', `${W}/comment/list/`, { query: { aweme_id: video.id, count: 50 } });
    const mine = list.comments.find((c: { text: string }) => c.text === '改名之后的评论');
    expect(mine.user).toMatchObject({ sec_uid: me.secUid, nickname: '新名字 小明' });
    // Videos are found by their author's name too.
    const stale = await one<{ n: number }>(
      ctx,
      sql`
      select count(*)::int as n from videos where author_id = ${me.id} and not (search_tokens @> array['小明'])`,
    );
    expect(stale.n).toBe(0);
  });

  it('counts characters, so twenty emoji fit and twenty-one characters do not', async () => {
    const me = await someone();
    expect(
      (await ok('POST', EDIT, { token: me.token, form: { nickname: '😀'.repeat(NICKNAME_MAX) } })).user.nickname,
    ).toBe('😀'.repeat(NICKNAME_MAX));
    const long = await edit(me.token, { nickname: '字'.repeat(NICKNAME_MAX + 1) });
    expectErrorA(long, 400, 2);
    expect(long.body.status_msg).toBe(`昵称最多${NICKNAME_MAX}个字`);
  });

  it.each([
    ['empty', '', '昵称不能为空'],
    ['only spaces', '   ', '昵称不能为空'],
    ['a newline', '小\n明', '昵称不能包含换行或控制字符'],
    // Control characters are refused at the API's door, for every text field, before any field's own rule.
    ['a NUL', 'a\u0000b', '内容含有无法识别的字符，请删除后重试'],
  ])('refuses a nickname with %s', async (_, nickname, message) => {
    const me = await someone();
    const res = await edit(me.token, { nickname });
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toBe(message);
    expect(
      (await one<{ nickname: string }>(ctx, sql`select nickname from users where id = ${me.id}`)).nickname,
    ).not.toBe(nickname);
  });
});

describe('signature (简介)', () => {
  it('keeps line breaks, and an empty bio is allowed', async () => {
    const me = await someone();
    expect((await ok('POST', EDIT, { token: me.token, form: { signature: '第一行\r\n第二行 ' } })).user.signature).toBe(
      '第一行\n第二行',
    );
    expect((await ok('POST', EDIT, { token: me.token, form: { signature: '' } })).user.signature).toBe('');
  });

  it.each([
    ['too long', '字'.repeat(SIGNATURE_MAX + 1), `简介最多${SIGNATURE_MAX}个字`],
    ['too many lines', Array.from({ length: 11 }, (_, i) => String(i)).join('\n'), '简介最多10行'],
    ['a control character', 'a\u0007b', '内容含有无法识别的字符，请删除后重试'],
  ])('refuses a bio %s', async (_, signature, message) => {
    const me = await someone();
    const res = await edit(me.token, { signature });
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toBe(message);
  });
});

describe('gender and birthday', () => {
  it('saves gender and birthday; others see the gender and the age, only the owner the date', async () => {
    const me = await someone();
    const body = await ok('POST', EDIT, { token: me.token, form: { gender: 2, birthday: '2000-02-29' } });
    expect(body.user).toMatchObject({ gender: 2, birthday: '2000-02-29' });
    expect(body.user.user_age).toBeGreaterThanOrEqual(25);
    const other = await ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: me.secUid } });
    expect(other.user).toMatchObject({ gender: 2, user_age: body.user.user_age });
    expect(other.user.birthday).toBeUndefined();
    const self = await ok('GET', `${W}/user/profile/self/`, { token: me.token });
    expect(self.user.birthday).toBe('2000-02-29');
  });

  it('removes the birthday with an empty value', async () => {
    const me = await someone();
    await ok('POST', EDIT, { token: me.token, form: { birthday: '1990-05-01' } });
    const body = await ok('POST', EDIT, { token: me.token, form: { birthday: '' } });
    expect(body.user).toMatchObject({ birthday: '', user_age: -1 });
  });

  it.each([
    ['not a day', '2023-02-30', '生日不是有效的日期'],
    ['not a date', '01/02/2000', '生日不是有效的日期'],
    ['before 1900', '1899-12-31', '生日不是有效的日期'],
    ['in the future', `${new Date().getFullYear() + 1}-01-01`, '生日不能晚于今天'],
  ])('refuses a birthday %s', async (_, birthday, message) => {
    const me = await someone();
    const res = await edit(me.token, { birthday });
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toBe(message);
  });

  it.each([['3'], ['-1'], ['男']])('refuses gender %s', async (gender) => {
    const me = await someone();
    const res = await edit(me.token, { gender });
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toContain('gender');
  });
});

describe('pictures', () => {
  it('turns a PNG avatar into a square WebP, and a banner into 3:1; the old avatar file goes', async () => {
    const me = await someone();
    const first = await upload(
      me.token,
      form({}, { avatar: { bytes: await png(800, 600), name: 'me.png', type: 'image/png' } }),
    );
    expect(first.status, first.text).toBe(200);
    const url: string = first.body.user.avatar_300x300.url_list[0];
    expect(url).toMatch(/^\/media\/profiles\/\d+\/avatar-\w+\.webp$/);
    const file = readFileSync(mediaFile(url));
    expect((await fileTypeFromBuffer(file))?.mime).toBe('image/webp');
    expect(await sharp(file).metadata()).toMatchObject({ format: 'webp', width: 512, height: 512 });

    const banner = await upload(
      me.token,
      form({ nickname: '有背景的人' }, { cover: { bytes: await png(1000, 1000), name: 'b.png', type: 'image/png' } }),
    );
    expect(banner.status, banner.text).toBe(200);
    const coverUrl: string = banner.body.user.cover_url[0].url_list[0];
    expect(await sharp(readFileSync(mediaFile(coverUrl))).metadata()).toMatchObject({
      format: 'webp',
      width: 1500,
      height: 500,
    });
    expect(banner.body.user.nickname).toBe('有背景的人');

    const second = await upload(
      me.token,
      form({}, { avatar: { bytes: await png(300, 300), name: 'again.png', type: 'image/png' } }),
    );
    expect(second.status).toBe(200);
    expect(existsSync(mediaFile(url))).toBe(false);
    expect(existsSync(mediaFile(second.body.user.avatar_300x300.url_list[0]))).toBe(true);
  });

  it.each([
    ['a text file named .png', Buffer.from('hello, not a picture\n'.repeat(20)), 'x.png', 'image/png'],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'),
      'x.svg',
      'image/svg+xml',
    ],
    ['an HTML page named .jpg', Buffer.from('<!doctype html><html><body>hi</body></html>'), 'x.jpg', 'image/jpeg'],
  ])('refuses %s by its content', async (_, bytes, name, type) => {
    const me = await someone();
    const before = await one<{ avatar: string }>(ctx, sql`select avatar from users where id = ${me.id}`);
    const res = await upload(me.token, form({ nickname: '不会保存' }, { avatar: { bytes, name, type } }));
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toBe('头像需为 JPG、PNG 或 WebP 图片');
    // Nothing of the form is saved when a picture is refused.
    expect(await one(ctx, sql`select avatar, nickname from users where id = ${me.id}`)).toMatchObject({
      avatar: before.avatar,
    });
    expect(
      (await one<{ nickname: string }>(ctx, sql`select nickname from users where id = ${me.id}`)).nickname,
    ).not.toBe('不会保存');
  });

  it('refuses a PNG whose header is there but whose pixels are not', async () => {
    const me = await someone();
    const whole = await png(400, 400);
    const res = await upload(
      me.token,
      form({}, { cover: { bytes: whole.subarray(0, 60), name: 'cut.png', type: 'image/png' } }),
    );
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toBe('背景图已损坏，无法读取');
  });

  it('refuses an avatar over 5 MB with 413 and says the cap', async () => {
    const me = await someone();
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(AVATAR_MAX_BYTES)]);
    const res = await upload(me.token, form({}, { avatar: { bytes: big, name: 'big.png', type: 'image/png' } }));
    expectErrorA(res, 413, 6);
    expect(res.body.status_msg).toBe('头像不能超过5MB');
  });

  it('refuses a picture wider than 8192 px before decoding it', async () => {
    const me = await someone();
    const wide = await sharp({ create: { width: 9000, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const res = await upload(me.token, form({}, { avatar: { bytes: wide, name: 'wide.png', type: 'image/png' } }));
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toBe('头像的长和宽不能超过8192像素');
  });

  it('refuses a file in a field that takes none', async () => {
    const me = await someone();
    const res = await upload(
      me.token,
      form({}, { nickname: { bytes: await png(10, 10), name: 'n.png', type: 'image/png' } }),
    );
    expectErrorA(res, 400, 2);
  });
});

describe('the door', () => {
  it('needs a session, and something to change', async () => {
    expectErrorA(await call('POST', `/api${EDIT}`, { form: { nickname: '匿名' } }), 401, 8);
    const me = await someone();
    const res = await edit(me.token, {});
    expectErrorA(res, 400, 2);
    expect(res.body.status_msg).toBe('没有要修改的资料');
  });

  it('limits saves per account (429 with Retry-After)', async () => {
    const me = await someone();
    for (let i = 0; i < 30; i++) await ok('POST', EDIT, { token: me.token, form: { signature: `第${i}次` } });
    const res = await edit(me.token, { signature: '太多了' });
    expectErrorA(res, 429, 7);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('clears the anonymous answer cache, so visitors see the change at once', async () => {
    const me = await someone();
    process.env.API_ANON_CACHE = 'on';
    try {
      const read = () => ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: me.secUid } });
      const before = (await read()).user.nickname;
      expect((await read()).user.nickname).toBe(before);
      await ok('POST', EDIT, { token: me.token, form: { nickname: '缓存之后' } });
      expect((await read()).user.nickname).toBe('缓存之后');
    } finally {
      process.env.API_ANON_CACHE = 'off';
    }
  });

  it('is in the OpenAPI document with its pictures as binary multipart fields', async () => {
    const doc = await ok('GET', '/openapi.json');
    const op = doc.paths[EDIT].post;
    expect(op.requestBody.content['multipart/form-data'].schema.properties.avatar).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(op.requestBody.content['application/x-www-form-urlencoded'].schema.properties.avatar).toBeUndefined();
  });
});
