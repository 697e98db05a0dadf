// The caller's credentials: a bearer token or API key typed into the sign-in box, kept for the
// browser tab only (sessionStorage). Without one, requests go out unauthenticated (local use).
const KEY = 'verso.token';

export function token() {
  return window.sessionStorage.getItem(KEY) || '';
}

export function setToken(value) {
  if (value) window.sessionStorage.setItem(KEY, value.trim());
  else window.sessionStorage.removeItem(KEY);
}

export function authHeader() {
  const t = token();
  return t ? `Bearer ${t}` : null;
}
