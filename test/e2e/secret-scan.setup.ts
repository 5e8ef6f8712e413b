// Setup file of the e2e project: the secret canary over the whole suite. Every response a test
// gets through Node's fetch (from `wrangler dev`, a direct workerd, a packed project) is scanned
// as the test reads it (test/shared/secret-scan.ts decides what must not carry the secret, and
// fails the file).
import { scanResponsesOf, unwrapped } from '../shared/scan-responses-of.ts'

// The unwrapped fetch is kept on the global, so a file run in a process that already ran one wraps
// the original again, not the previous file's wrapper.
const global = globalThis as typeof globalThis & { [unwrapped]?: typeof fetch }
const fetchOfNode = (global[unwrapped] ??= globalThis.fetch)
globalThis.fetch = scanResponsesOf((request) => fetchOfNode(request))
