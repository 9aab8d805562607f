// The offline page's 重试 button: a script, not an onclick attribute, which the Content-Security-Policy refuses.
document.querySelector('[data-retry]')?.addEventListener('click', () => location.reload());
