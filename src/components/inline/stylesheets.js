// The page's stylesheets come as preloads (src/server/http/stylesheet-links.ts) and this turns each into a stylesheet
// that blocks rendering, so nothing shows unstyled, but not scripts: a stylesheet the parser meets blocks every inline
// script after it, and with them the parser, until it arrives, so a cold visit found the <video> (and began fetching
// it) only after the stylesheet. Added before <body>, blocking="render" holds the first paint as the parser's own
// stylesheet would.
const sheets = [];
for (const preload of document.querySelectorAll('link[rel=preload][as=style]')) {
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = preload.href;
  sheet.setAttribute('blocking', 'render');
  document.head.append(sheet);
  sheets.push(sheet);
}
// A browser that does not know blocking="render" (Firefox, Safari) would paint the page unstyled first: it stays hidden
// until every stylesheet has loaded or failed, and at most 3 s.
if (sheets.length && !('blocking' in HTMLLinkElement.prototype)) {
  const root = document.documentElement;
  const show = () => root.style.removeProperty('visibility');
  let left = sheets.length;
  root.style.visibility = 'hidden';
  for (const sheet of sheets) sheet.onload = sheet.onerror = () => --left || show();
  setTimeout(show, 3000);
}
