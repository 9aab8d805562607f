// The server saw no session but this browser kept a token: hydrate the login island so the API can judge it.
try {
  if (JSON.parse(localStorage.getItem('sy.user') || 'null')?.token)
    addEventListener('load', () => setTimeout(() => dispatchEvent(new Event('sy:hydrate-login'))));
} catch {}
