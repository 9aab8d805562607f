try {
  const r = document.documentElement;
  if (localStorage.getItem('theme') === 'dark') r.setAttribute('dark', 'true');
  const token = JSON.parse(localStorage.getItem('sy.user') || 'null')?.token;
  if (/(^|;\s*)sy_member=1/.test(document.cookie) || token) {
    r.setAttribute('data-member', '');
    // A page that names its member's marks call (src/server/http/marks-hint.ts) has it sent now, while the page is still
    // arriving; the chrome's script takes the answer (src/client/marks.ts). Without a saved token the cookie speaks.
    const q = r.getAttribute('data-marks-q');
    if (q !== null) self.syMarks = { q, answer: fetch('/api/user/marks?' + q, token ? { headers: { token } } : {}) };
  }
} catch {}
