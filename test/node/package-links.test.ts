// A user's first hour works from the package alone (SPEC §7, issue #49): every link of the README
// the package ships resolves inside the tarball `npm pack` makes, or is absolute; package.json names
// where the project lives.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { brokenLinks } from '../shared/broken-links.ts'

describe('the packed package', () => {
  it("ships every file its README links, and the pages those lead to (or the link is absolute), and names its repository, homepage and bugs", () => {
    // --dry-run lists what the tarball holds without building dist/ (the links never point into it).
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [{ files: { path: string }[] }]
    const inTarball = new Set(packed.files.map((file) => file.path))
    expect(inTarball.has('README.md')).toBe(true)
    const links = [...readFileSync('README.md', 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
    expect(links.length).toBeGreaterThan(10)
    // The README's links, and those of every page they lead to (docs/agents.md's examples are not shipped).
    const ships = (path: string) => inTarball.has(path) || [...inTarball].some((file) => file.startsWith(`${path}/`))
    expect(brokenLinks('.', 'README.md', ships)).toEqual([])
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>
    expect(manifest.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\//) })
    expect(manifest.homepage).toMatch(/^https:\/\//)
    expect(manifest.bugs).toMatchObject({ url: expect.stringMatching(/^https:\/\//) })
  }, 60_000)
})
