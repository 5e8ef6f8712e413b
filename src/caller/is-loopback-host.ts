/**
 * Whether a `URL#hostname` names this machine: `localhost`, 127.0.0.0/8 or `[::1]`. No DNS answer
 * can make another name one of these, which is why a locally served app answers only them (SPEC §5).
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname)
}
