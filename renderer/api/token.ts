// The console's token in a browser: given once in the URL fragment (#token=...),
// kept for the tab's session, and removed from the address bar.
const KEY = 'console-token';

export function captureTokenFromUrl(location: Location = window.location, history: History = window.history) {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return;
  sessionStorage.setItem(KEY, decodeURIComponent(match[1]!));
  history.replaceState(null, '', location.pathname + location.search);
}

export function currentToken(): string | null {
  return sessionStorage.getItem(KEY);
}
