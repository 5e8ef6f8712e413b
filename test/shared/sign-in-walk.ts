/**
 * A browser's walk from an authorization URL to the redirect back to the client: follows each
 * redirect by hand, keeping cookies, and answers the `code` the authorization server sent back.
 */
export async function signInWalk(authorizationUrl: URL | string, redirectUrl: string): Promise<string> {
  const cookies = new Map<string, string>()
  let url = new URL(authorizationUrl)
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1))
    }
    const location = response.headers.get('location')
    if (!location) throw new Error(`sign-in stopped at ${url.pathname} with ${response.status}: ${(await response.text()).slice(0, 300)}`)
    await response.body?.cancel()
    url = new URL(location, url)
    if (url.href.startsWith(redirectUrl)) {
      const code = url.searchParams.get('code')
      if (!code) throw new Error(`the authorization server refused: ${url.searchParams.get('error')} ${url.searchParams.get('error_description')}`)
      return code
    }
  }
  throw new Error('sign-in did not come back in 20 redirects')
}
