// A user's first hour works from the package alone (SPEC §7, issue #49): every link of the README
// the package ships resolves inside the tarball `npm pack` makes, or is absolute; package.json names
// where the project lives.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

describe('the packed package', () => {
  it("ships every file its README links (or the link is absolute), and names its repository, homepage and bugs", () => {
    // --dry-run lists what the tarball holds without building dist/ (the links never point into it).
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [{ files: { path: string }[] }]
    const inTarball = new Set(packed.files.map((file) => file.path))
    expect(inTarball.has('README.md')).toBe(true)
    const readme = readFileSync('README.md', 'utf8')
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!)
    expect(links.length).toBeGreaterThan(10)
    const broken = links
      .filter((link) => !/^(https?:|mailto:|#)/.test(link))
      .map((link) => link.replace(/#.*$/, '').replace(/^\.\//, ''))
      .filter((path) => !inTarball.has(path) && ![...inTarball].some((file) => file.startsWith(`${path.replace(/\/$/, '')}/`)))
    expect(broken).toEqual([])
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>
    expect(manifest.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\//) })
    expect(manifest.homepage).toMatch(/^https:\/\//)
    expect(manifest.bugs).toMatchObject({ url: expect.stringMatching(/^https:\/\//) })
  }, 60_000)
})
