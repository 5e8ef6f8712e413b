/** A positive number of milliseconds from a config value, else from the environment var `name`, if any. */
export function millisecondsOf(configured: number | undefined, env: unknown, name: string): number | undefined {
  if (configured !== undefined) return configured
  const fromEnv = (env as Record<string, unknown> | undefined)?.[name]
  const value = typeof fromEnv === 'string' || typeof fromEnv === 'number' ? Number(fromEnv) : Number.NaN
  return Number.isFinite(value) && value > 0 ? value : undefined
}
