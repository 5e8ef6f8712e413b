/** A positive number of milliseconds from a config value or an environment var, if any. */
export function millisecondsOf(configured: number | undefined, fromEnv: unknown): number | undefined {
  if (configured !== undefined) return configured
  const value = typeof fromEnv === 'string' || typeof fromEnv === 'number' ? Number(fromEnv) : Number.NaN
  return Number.isFinite(value) && value > 0 ? value : undefined
}
