/** The oldest Node toolroute and wrangler run on. */
export const minimumNode = [22, 12]

/**
 * Why this Node cannot run toolroute, with the fix, or `undefined` when it can. Checked before
 * anything else: wrangler refuses an older Node only after `toolroute dev` has printed its routes.
 */
export function nodeVersionProblem(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number)
  if (major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1])) return undefined
  return `toolroute: Node ${version} is too old: toolroute and wrangler need Node ${minimumNode.join('.')} or later.
  Install a current Node with a version manager (nvm install 22, fnm install 22, volta install node@22),
  or run this once with npm's own: npx -p node@22 -p toolroute toolroute <command>,
  or make it the project's: npm install -D node@22 (npm run and npx then use it).`
}
