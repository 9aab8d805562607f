try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.setAttribute('dark', 'true');
} catch {}
