// Setup file of the workerd projects: the secret canary over the whole suite. Every response a
// test gets from the test Worker through SELF is scanned as the test reads it
// (test/shared/secret-scan.ts decides what must not carry the secret, and fails the file).
import { exports } from 'cloudflare:workers'
import { scanResponsesOf } from '../shared/secret-scan.ts'

// SELF (cloudflare:test) is a proxy that reads `fetch` off `exports.default`, the loopback to the
// test Worker, on every use: the wrapper goes there.
const self = (exports as unknown as { default: Fetcher }).default
const fetchOfSelf = self.fetch.bind(self)
self.fetch = scanResponsesOf((request) => fetchOfSelf(request)) as Fetcher['fetch']
