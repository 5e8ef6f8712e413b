#!/usr/bin/env bash
# Debian's Chromium for the playground's browser tests (test/e2e/playground.test.ts), which drive it
# with playwright-core: Playwright's own browser downloads are not reachable from CI. Idempotent:
# does nothing when /usr/bin/chromium exists. Needs root (apt-get), as CI's container has.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium
