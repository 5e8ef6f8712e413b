#!/usr/bin/env bash
# Debian's Chromium for the playground's browser tests (test/e2e/playground.test.ts), which drive it
# with playwright-core: Playwright's own browser downloads are not reachable from CI. Idempotent:
# does nothing when /usr/bin/chromium exists. Needs root (apt-get), as CI's container has.
# apt's lock may be held by another apt-get (a second checkout's CI installing the same package, a
# container's first-boot update): wait for it rather than fail the run, for at most 5 minutes.
set -uo pipefail
export DEBIAN_FRONTEND=noninteractive
for attempt in $(seq 1 60); do
  [ -x /usr/bin/chromium ] && exit 0
  if apt-get -o DPkg::Lock::Timeout=5 update && apt-get -o DPkg::Lock::Timeout=5 install -y chromium; then
    exit 0
  fi
  echo "install-chromium: apt-get failed (attempt $attempt of 60; another apt-get may hold its lock), retrying in 5 s" >&2
  sleep 5
done
echo "install-chromium: could not install chromium" >&2
exit 1
