import { existsSync, mkdirSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

/** Where the playground tests save a screenshot of each step (a CI artefact). */
export const screenshotDir = 'test-results/playground'

/**
 * Debian's Chromium (`scripts/install-chromium.sh`), driven by playwright-core: Playwright's own
 * browser downloads are not reachable here. A missing browser fails the tests, loudly: CI installs it.
 */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium is not installed at ${executablePath}: the playground's browser tests need it. Run scripts/install-chromium.sh (apt-get install -y chromium), or set CHROMIUM_PATH.`)
  }
  mkdirSync(screenshotDir, { recursive: true })
  return chromium.launch({
    executablePath,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}
