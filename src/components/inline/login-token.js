try {
  const u = JSON.parse(localStorage.getItem('sy.user') || 'null');
  const s = document.currentScript?.parentElement?.querySelector('[data-account="member"]');
  const i = u?.token && s ? u.userInfo || {} : null;
  if (i) {
    const a = (i.avatar_thumb || i.avatar_300x300)?.url_list?.[0];
    const img = s.querySelector('img');
    const b = s.querySelector('button');
    if (a && img) img.src = a;
    if (i.nickname && b) b.setAttribute('aria-label', b.getAttribute('aria-label').replace('{nickname}', i.nickname));
  }
} catch {}
