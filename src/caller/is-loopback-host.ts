/**
 * Whether a URL host name (as `URL#hostname` gives it: lower-case, IPv6 in brackets) names this
 * machine: `localhost`, an address of 127.0.0.0/8 or `[::1]`. No DNS answer can make another name
 * one of these, which is why a locally served app answers only them (SPEC §5).
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname)
}
