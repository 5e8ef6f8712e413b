/** Where the page keeps the tab's token (`playgroundSession` reads it back from the same key). */
const tokenKey = 'toolroute.playground.token'

/**
 * The script of the token prompt. It asks for the page again with the token, and on success writes that
 * page over itself: a navigation cannot carry a header, a fetch can. A token kept by this tab is tried
 * first, so a reload opens the page without asking. Shipped as the text of this function.
 */
function tokenPrompt(key: string) {
  const global: any = globalThis
  const doc = global.document
  const refused = doc.getElementById('refused')
  const open = async (token: string) => {
    const response = await global.fetch(global.location.href, { headers: { accept: 'text/html', authorization: `Bearer ${token}` } })
    if (!response.ok) return void (refused.textContent = response.status === 401 ? 'This token was refused.' : `The page answered ${response.status}.`)
    try {
      global.sessionStorage.setItem(key, JSON.stringify(token))
    } catch {}
    const page = await response.text()
    doc.open()
    doc.write(page)
    doc.close()
  }
  doc.getElementById('sign-in').addEventListener('submit', (event: any) => {
    event.preventDefault()
    void open(doc.getElementById('token').value.trim())
  })
  let kept: unknown
  try {
    kept = JSON.parse(global.sessionStorage.getItem(key) ?? 'null')
  } catch {}
  if (typeof kept === 'string' && kept) void open(kept)
}

/** What a browser refused `GET /` by the app's auth sees: a form for the token the page needs (SPEC §10). */
export function playgroundTokenPrompt(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolroute playground</title>
<link rel="icon" href="data:,">
<style>:root{color-scheme:light dark;font:15px/1.45 system-ui,sans-serif}main{max-width:32rem;margin:3rem auto;padding:0 1rem}input{width:16rem}#refused{color:#b3261e}</style>
</head>
<body>
<main>
<h1>toolroute playground</h1>
<p>This app needs a token. The page sends it as <code>Authorization: Bearer</code> and keeps it in this tab only.</p>
<form id="sign-in"><label for="token">Token</label> <input id="token" type="password" autocomplete="off" spellcheck="false" required> <button>Open</button></form>
<p id="refused" role="alert"></p>
</main>
<script>(${tokenPrompt.toString()})(${JSON.stringify(tokenKey)})</script>
</body>
</html>
`
}
