/** Whether a `URL#hostname` is `localhost`, 127.0.0.0/8 or `[::1]`: names no DNS answer can rebind (SPEC §5). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname)
}
