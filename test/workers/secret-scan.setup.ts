// Setup file of the workerd projects: the secret canary over the whole suite. Every response a
// test gets from the test Worker through SELF is scanned as the test reads it
// (test/shared/secret-scan.ts decides what must not carry the secret, and fails the file).
import { exports } from 'cloudflare:workers'
import { scanResponsesOf, unwrapped } from '../shared/scan-responses-of.ts'

// SELF (cloudflare:test) is a proxy that reads `fetch` off `exports.default`, the loopback to the
// test Worker, on every use: the wrapper goes there.
// The unwrapped fetch is kept on it, so a file run in an isolate that already ran one wraps the
// original again, not the previous file's wrapper.
const self = (exports as unknown as { default: Fetcher & { [unwrapped]?: Fetcher['fetch'] } }).default
const fetchOfSelf = (self[unwrapped] ??= self.fetch.bind(self))
self.fetch = scanResponsesOf((request) => fetchOfSelf(request)) as Fetcher['fetch']
