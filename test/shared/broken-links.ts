// The links a reader of the package follows: every markdown link of a page and of the pages it leads to,
// outside code blocks. Used on the packed package (SPEC §7: its README and its links work where a user reads them).
import { readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'

/** A heading's anchor as GitHub and npm make it. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')

/**
 * Every link of `start` (a path under `root`), and of every page it reaches, that is not absolute and does not
 * name a file `ships` (a path relative to `root`) or a heading of the page it names.
 */
export function brokenLinks(root: string, start: string, ships: (path: string) => boolean): string[] {
  const prose = (page: string) => readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '')
  const anchors = (page: string) => new Set(prose(page).split('\n').filter((line) => /^#{1,6} /.test(line)).map((line) => slug(line.replace(/^#+ /, ''))))
  const broken: string[] = []
  const seen = new Set<string>()
  const pages = [start]
  while (pages.length > 0) {
    const page = pages.shift()!
    if (seen.has(page)) continue
    seen.add(page)
    for (const [, link] of prose(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(link!)) continue
      const [path, anchor] = link!.split('#')
      const target = path ? normalize(join(dirname(page), path)).replace(/\/$/, '') : page
      if (target.startsWith('..') || !ships(target)) broken.push(`${page}: ${link}`)
      else if (target.endsWith('.md')) {
        if (anchor && !anchors(target).has(anchor)) broken.push(`${page}: ${link} (no such heading)`)
        pages.push(target)
      }
    }
  }
  return broken
}
