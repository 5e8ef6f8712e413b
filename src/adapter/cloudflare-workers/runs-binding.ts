/** The Durable Object binding that holds runs, and its principals' run indexes (wrangler.toml `[[durable_objects.bindings]]`). */
export const runsBinding = 'TOOLROUTE_RUNS'
