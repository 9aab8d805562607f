import { describe, expect, it } from 'vitest';
import { marksTargetsOf, withMarksHint } from './marks-hint.ts';

const PAGE = [
  '<!DOCTYPE html><html lang="zh-CN" data-theme="dark"><head><script>theme()</script></head><body>',
  '<script type="application/json" id="feed-data" data-marks>',
  JSON.stringify({
    items: [
      { id: 7, author: { secUid: 'MS4wA' } },
      { id: 8, author: { secUid: 'MS4wB' } },
    ],
  }),
  '</script>',
  // A JSON block the marks do not read (no data-marks), and a script that is not JSON.
  '<script type="application/json" id="other">{"item":{"id":99,"author":{"secUid":"MS4wZ"}}}</script>',
  '<script>const x = "<button data-mark=\\"like\\" data-video=\\"98\\">";</script>',
  '<script type="application/json" id="player-data-9" data-marks="">{"item":{"id":9,"author":{"secUid":"MS4wA"}}}</script>',
  '<button type="button" data-mark="like" data-video="7" aria-pressed="false">♥</button>',
  '<button data-mark="follow" data-user="MS4wC,MS4wD" class="x">关注</button>',
  '<div data-marks-series="12"></div><div class="contents" data-marks-visit="MS4wE"></div>',
  '<script type="module" src="/_astro/ChromeRuntime.astro_astro_type_script_index_0_lang.DDD.js"></script>',
  '<script type="module" src="/_astro/TabBar.astro_astro_type_script_index_0_lang.EEE.js"></script>',
  '</body></html>',
].join('');

describe('marks targets read from a rendered page', () => {
  it('finds what the browser finds: the marked JSON blocks, then every data-mark, the series and the profile', () => {
    const targets = marksTargetsOf(PAGE);
    expect(targets.videos).toEqual(['7', '8', '9']);
    expect(targets.users).toEqual(['MS4wA', 'MS4wB', 'MS4wC', 'MS4wD']);
    expect(targets.series).toBe('12');
    expect(targets.visit).toBe('MS4wE');
  });

  it('takes nothing from a marked block that does not parse', () => {
    const html = '<html><body><script type="application/json" data-marks>{"items": [</script></body></html>';
    expect(marksTargetsOf(html)).toEqual({ videos: [], users: [] });
  });

  it('names the marks call on the root element, escaped as an attribute, and leaves a page without targets alone', () => {
    const hinted = withMarksHint(Buffer.from(PAGE)).toString();
    expect(hinted.startsWith('<!DOCTYPE html><html data-marks-q="videos=7%2C8%2C9&amp;users=MS4wA%2CMS4wB')).toBe(true);
    expect(hinted).toContain('&amp;series=12&amp;visit=MS4wE" lang="zh-CN" data-theme="dark">');
    // The chrome's script runs as soon as it has loaded; the other module scripts stay deferred.
    expect(hinted).toContain(
      '<script type="module" async src="/_astro/ChromeRuntime.astro_astro_type_script_index_0_lang.DDD.js"></script>',
    );
    expect(hinted).toContain('<script type="module" src="/_astro/TabBar.astro_astro_type_script_index_0_lang.EEE.js">');
    // Everything else byte for byte.
    expect(hinted.replace(/ data-marks-q="[^"]*"/, '').replace(' async src=', ' src=')).toBe(PAGE);
    const plain = Buffer.from('<!DOCTYPE html><html lang="zh-CN"><body><p>闪映</p></body></html>');
    expect(withMarksHint(plain)).toBe(plain);
  });
});
