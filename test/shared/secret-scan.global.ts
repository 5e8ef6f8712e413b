// Global setup of the workerd and e2e projects: at the end of the run, adds up what every test file's
// secret scan read (scanResponsesOf in secret-scan.ts puts it in the file's task meta) and prints
// it. A leak already failed its file; this is the suite's figure, and a last check.
import type { TestProject } from 'vitest/node'
import { addTally, describeTally, emptyTally } from './secret-scan.ts'

export default function setup(project: TestProject) {
  return () => {
    const total = emptyTally()
    const files = project.vitest.state.getFiles().filter((file) => file.projectName === project.name && file.meta.secretScan)
    for (const file of files) addTally(total, file.meta.secretScan!)
    if (files.length === 0) return
    console.log(`${project.name}: ${describeTally(total, files.length)}`)
    if (total.leaks.length) throw new Error(`${project.name}: the canary's secret appeared ${total.leaks.length} times`)
  }
}
