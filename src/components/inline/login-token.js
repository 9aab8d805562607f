// A saved login shows its avatar in the header before first paint; the marks call confirms it right after
// (src/client/marks.ts), and the header turns back to 登录 only if the session is over.
try {
  const user = JSON.parse(localStorage.getItem('sy.user') || 'null');
  const slot = document.currentScript?.parentElement?.querySelector('[data-account="member"]');
  const info = user?.token && slot ? user.userInfo || {} : null;
  if (info) {
    const avatar = (info.avatar_thumb || info.avatar_300x300)?.url_list?.[0];
    const img = slot.querySelector('img');
    const button = slot.querySelector('button');
    if (avatar && img) img.src = avatar;
    if (info.nickname && button)
      button.setAttribute('aria-label', button.getAttribute('aria-label').replace('{nickname}', info.nickname));
  }
} catch {}
