// Which Host header values the console answers. A page on another site can make a browser send
// requests to 127.0.0.1 under its own name (DNS rebinding); answering only the names the console
// is reached by (the loopback names, or a list configured when it is bound elsewhere) closes that.

/** The loopback names, always served: `127.0.0.1`, `localhost`, `[::1]`. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * A checker of Host values for a server listening on `port()`. An entry of `extra` is a name
 * (any of the console's ports) or `name:port`; names compare without case.
 */
export function hostChecker(port: () => number | undefined, extra: string[] = []) {
  const names = [...LOOPBACK_HOSTS, ...extra].map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  return (host: string | undefined): boolean => {
    if (!host) return false;
    const value = host.trim().toLowerCase();
    const current = port();
    return names.some((name) => value === `${name}:${current}` || (/:\d+$/.test(name) && !name.endsWith(']') && value === name));
  };
}

/** The hosts to serve for a bind address that is not loopback: that address, unless a list is given. */
export function defaultAllowedHosts(bindAddress: string, configured: string[] | undefined): string[] {
  if (configured && configured.length) return configured;
  const loopback = ['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'];
  if (loopback.includes(bindAddress)) return [];
  return [bindAddress.includes(':') ? `[${bindAddress}]` : bindAddress];
}
