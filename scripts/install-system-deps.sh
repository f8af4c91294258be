#!/usr/bin/env bash
# System packages the tests need: Czech hunspell dictionary (GPL-2 data, loaded at run time,
# never vendored) and Debian's Chromium for the browser tests. Idempotent; skips what is present.
set -euo pipefail
need=()
[ -f /usr/share/hunspell/cs_CZ.dic ] || need+=(hunspell-cs)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "install-system-deps: need root to apt-get install ${need[*]}" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
