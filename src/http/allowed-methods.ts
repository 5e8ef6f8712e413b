/** A route as Hono lists it (`app.routes`): middleware is method `ALL`. */
interface ListedRoute {
  method: string
  path: string
}

/**
 * The methods a path is served with (SPEC §2: a known path with another method answers 405 with `Allow`);
 * empty for an unknown path. Read from the app's own routes, so a route added anywhere is counted.
 */
export function allowedMethods(routes: readonly ListedRoute[], path: string): string[] {
  const methods = routes.filter((route) => route.method !== 'ALL' && patternOf(route.path).test(path)).map((route) => route.method)
  return [...new Set(methods)]
}

const patterns = new Map<string, RegExp>()
const patternOf = (path: string): RegExp => {
  let pattern = patterns.get(path)
  if (!pattern) {
    const source = path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')
    patterns.set(path, (pattern = new RegExp(`^${source}$`)))
  }
  return pattern
}
