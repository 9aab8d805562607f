try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.setAttribute('dark', 'true');
  // A saved login: a page every viewer shares shows the member's parts from the first paint (src/client/marks.ts).
  if (JSON.parse(localStorage.getItem('sy.user') || 'null')?.token)
    document.documentElement.setAttribute('data-member', '');
} catch {}
