// 默认页面 (src/client/chrome/default-page.ts, cookie sy_home): inlined so the logo and the site root follow it before
// first paint. Only a visit from outside is sent on; the 推荐 entry and in-site links still reach the feed at /.
try {
  if (/(?:^|;\s*)sy_home=discover(?:;|$)/.test(document.cookie)) {
    document.getElementById('site-logo').href = '/discover';
    const from = document.referrer && new URL(document.referrer).origin;
    if (location.pathname === '/' && from !== location.origin) location.replace('/discover' + location.search);
  }
} catch {}
