try {
  const r = document.documentElement;
  if (localStorage.getItem('theme') === 'dark') r.setAttribute('dark', 'true');
  if (/(^|;\s*)sy_member=1/.test(document.cookie) || JSON.parse(localStorage.getItem('sy.user') || 'null')?.token)
    r.setAttribute('data-member', '');
} catch {}
