// Bindings of test/workers/wrangler.toml that the durable-run tests use.
declare namespace Cloudflare {
  interface Env {
    TOOLROUTE_RUNS: DurableObjectNamespace
    RUN_STORE_PROBE: DurableObjectNamespace
    EXECUTION_COUNTER: DurableObjectNamespace
    TOOLROUTE_RUNS_KV: KVNamespace
    LIMITED_RUNS: DurableObjectNamespace
    WEBHOOK_RUNS: DurableObjectNamespace
    FLAKY_INDEX_RUNS: DurableObjectNamespace
  }
}
