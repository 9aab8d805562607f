// The page's stylesheets come as preloads (src/server/http/stylesheet-links.ts) and this turns each into a stylesheet
// that blocks rendering, so nothing shows unstyled, but not scripts: a stylesheet the parser meets blocks every inline
// script after it, and with them the parser, until it arrives, so a cold visit found the <video> (and began fetching
// it) only after the stylesheet. Added before <body>, blocking="render" holds the first paint as the parser's own
// stylesheet would. A browser that does not know it (Firefox, Safari) would paint the page unstyled first: there the
// page stays hidden until every stylesheet has loaded or failed, and at most 3 s. (A block, so that nothing is global.)
{
  const doc = document;
  const hold = !('blocking' in HTMLLinkElement.prototype);
  const root = doc.documentElement.style;
  const show = () => (root.visibility = '');
  let left = 0;
  for (const { href } of doc.querySelectorAll('link[as=style]')) {
    const sheet = doc.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = href;
    sheet.blocking = 'render';
    if (hold) {
      root.visibility = 'hidden';
      left++;
      sheet.onload = sheet.onerror = () => --left || show();
    }
    doc.head.append(sheet);
  }
  if (left) setTimeout(show, 3e3);
}
