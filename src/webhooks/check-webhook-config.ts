import type { WebhookConfig } from './webhook-deliveries-of.ts'

/** Refuses, when the app is made, a webhook config that could never deliver: no `publicUrl`, a bad URL, a secret not in `whsec_` form. */
export function checkWebhookConfig(config: WebhookConfig): void {
  if (!config.publicUrl || !URL.canParse(config.publicUrl)) {
    throw new TypeError('webhooks need `publicUrl`, the absolute URL the routes are served at (e.g. https://tools.example.com): their links are built on it')
  }
  for (const { url, secret } of config.webhooks ?? []) {
    if (!URL.canParse(url)) throw new TypeError(`webhook url ${JSON.stringify(url)} is not an absolute URL`)
    if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) throw new TypeError(`the secret of webhook ${url} is not a Standard Webhooks secret (whsec_ and base64)`)
  }
}
