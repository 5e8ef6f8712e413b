// Setup file of the e2e project: the secret canary over the whole suite. Every response a test
// gets through Node's fetch (from `wrangler dev`, a direct workerd, a packed project) is scanned
// as the test reads it (test/shared/secret-scan.ts decides what must not carry the secret, and
// fails the file).
import { scanResponsesOf } from '../shared/secret-scan.ts'

const fetchOfNode = globalThis.fetch
globalThis.fetch = scanResponsesOf((request) => fetchOfNode(request))
