// The page's stylesheets come as preloads (src/server/http/stylesheet-links.ts) and this turns each into a stylesheet
// that blocks rendering, so nothing shows unstyled, but not scripts: a stylesheet the parser meets blocks every inline
// script after it, and with them the parser, until it arrives, so a cold visit found the <video> (and began fetching
// it) only after the stylesheet. Added before <body>, blocking="render" holds the first paint as the parser's own
// stylesheet would.
for (const preload of document.querySelectorAll('link[rel=preload][as=style]')) {
  const sheet = document.createElement('link');
  sheet.rel = 'stylesheet';
  sheet.href = preload.href;
  sheet.setAttribute('blocking', 'render');
  document.head.append(sheet);
}
