import { describe, expect, it } from 'vitest';
import { CAPTION_MAX_CUES, CUE_TEXT_MAX } from '../../shared/captions.ts';
import { ServiceError } from '../errors.ts';
import { checkCueText, decodeCaptionFile, parseCaptions, plainCueText, toWebVTT } from './parse.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

/** The ServiceError a promise or call rejects with (key and vars), for table checks. */
async function refusal(run: () => unknown): Promise<{ key: string; vars?: Record<string, string | number> }> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ServiceError) return { key: e.key, vars: e.vars };
    throw e;
  }
  throw new Error('not refused');
}

const VTT = `WEBVTT

1
00:00:00.500 --> 00:00:02.000
<b>你好</b>，<c.yellow>世界</c> &amp; 朋友们

00:00:02.000 --> 00:00:03.500 align:start position:10%
<v 张三>第二句</v>
第二行
`;

describe('reading a caption file', () => {
  it('parses WebVTT into plain-text cues in time order, markup stripped and entities decoded', async () => {
    expect(await parseCaptions(VTT, 'a.vtt', 8000)).toEqual([
      { start: 500, end: 2000, text: '你好，世界 & 朋友们' },
      { start: 2000, end: 3500, text: '第二句\n第二行' },
    ]);
  });

  it('converts SubRip (with a byte-order mark, CRLF lines and <font> tags) to the same cues', async () => {
    const srt =
      '\uFEFF1\r\n00:00:00,500 --> 00:00:02,000\r\n<font color="red">甲</font>\r\n\r\n2\r\n00:00:02,000 --> 00:00:03,000\r\n{\\an8}乙\r\n';
    const text = decodeCaptionFile(bytes(srt));
    expect(await parseCaptions(text, 'b.srt', 8000)).toEqual([
      { start: 500, end: 2000, text: '甲' },
      { start: 2000, end: 3000, text: '乙' },
    ]);
  });

  it('reads GB18030 and UTF-16 files, as Chinese subtitle tools save them', () => {
    const gbk = Uint8Array.from([0xc4, 0xe3, 0xba, 0xc3]); // 你好 in GBK
    expect(decodeCaptionFile(gbk)).toBe('你好');
    const utf16 = Uint8Array.from([0xff, 0xfe, 0x60, 0x4f, 0x7d, 0x59]);
    expect(decodeCaptionFile(utf16)).toBe('你好');
  });

  it('writes WebVTT that reads back to the same cues, with <, > and & kept as text', async () => {
    const cues = [
      { start: 0, end: 1500, text: 'a < b > c & d' },
      { start: 61_000, end: 3_723_004, text: '两行\n字幕' },
    ];
    const vtt = toWebVTT(cues);
    expect(vtt).toContain('00:01:01.000 --> 01:02:03.004');
    expect(await parseCaptions(vtt, 'x.vtt', 4_000_000)).toEqual(cues);
  });
});

describe('a caption file refused, naming what to fix', () => {
  const cases: [string, string, string, { key: string; line?: number }][] = [
    [
      'a malformed timestamp',
      'a.vtt',
      'WEBVTT\n\n00:00:01.000 --> 00:0x:02.000\n坏\n',
      { key: 'error.captionTimestamp', line: 3 },
    ],
    [
      'a missing WEBVTT header',
      'a.vtt',
      '00:00:01.000 --> 00:00:02.000\n无头\n',
      { key: 'error.captionSignature', line: 1 },
    ],
    [
      'an end before its start',
      'a.vtt',
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n好\n\n00:00:03.000 --> 00:00:02.500\n倒\n',
      { key: 'error.captionOrder', line: 6 },
    ],
    [
      'a cue past the end of the video',
      'a.srt',
      '1\n00:00:01,000 --> 00:00:02,000\n好\n\n2\n00:00:07,000 --> 00:00:09,000\n超出\n',
      { key: 'error.captionPastEnd', line: 6 },
    ],
    [
      'a <script>',
      'a.vtt',
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n正常\n<script>alert(1)</script>\n',
      { key: 'error.captionScript', line: 5 },
    ],
    [
      'an onerror= attribute',
      'a.vtt',
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<img src=x onerror=alert(1)>\n',
      { key: 'error.captionScript', line: 4 },
    ],
    [
      'a cue too long',
      'a.vtt',
      `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'长'.repeat(CUE_TEXT_MAX + 1)}\n`,
      { key: 'error.captionCueTooLong', line: 4 },
    ],
    ['text that is neither format', 'a.txt', '就是一段话\n', { key: 'error.captionFormat' }],
    ['a file with no cue', 'a.vtt', 'WEBVTT\n\nNOTE 只有注释\n', { key: 'error.captionNoCues' }],
  ];
  it.each(cases)('%s', async (_, name, text, expected) => {
    const got = await refusal(() => parseCaptions(text, name, 8000));
    expect(got.key).toBe(expected.key);
    if (expected.line !== undefined) expect(got.vars?.line).toBe(expected.line);
  });

  it('refuses more cues than the cap before parsing them', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `00:00:00.000 --> 00:00:00.500\n第${i}句\n`).join('\n');
    expect(await refusal(() => parseCaptions(`WEBVTT\n\n${many}`, 'many.vtt', 8000))).toEqual({
      key: 'error.captionTooManyCues',
      vars: { max: CAPTION_MAX_CUES },
    });
  });

  it('refuses binary files and files over the size cap by their bytes', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    expect((await refusal(() => decodeCaptionFile(png))).key).toBe('error.captionBinary');
    expect((await refusal(() => decodeCaptionFile(bytes('WEBVTT\n\u0000\u0001')))).key).toBe('error.captionBinary');
    expect((await refusal(() => decodeCaptionFile(new Uint8Array(10 * 1024 * 1024).fill(0x41)))).key).toBe(
      'error.captionTooLarge',
    );
    expect((await refusal(() => decodeCaptionFile(new Uint8Array(0)))).key).toBe('error.captionEmpty');
  });
});

describe('a cue edited by hand', () => {
  it('keeps text, drops markup, and refuses scripts, nothing or too much', async () => {
    expect(checkCueText('  <i>新的</i> 字幕\r\n第二行 ')).toBe('新的 字幕\n第二行');
    expect((await refusal(() => checkCueText('<script>x</script>'))).key).toBe('error.captionScriptText');
    expect((await refusal(() => checkCueText('<b></b>  '))).key).toBe('error.captionCueEmpty');
    expect((await refusal(() => checkCueText('字'.repeat(CUE_TEXT_MAX + 1)))).key).toBe('error.captionCueTextTooLong');
    expect(plainCueText('a&#x4e2d;&#25991;&nbsp;b')).toBe('a中文 b');
  });
});
