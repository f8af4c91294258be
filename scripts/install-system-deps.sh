#!/usr/bin/env bash
# System packages the portal and tests need: the Czech hunspell dictionary (GPL-2 data, loaded at
# run time, never vendored), Debian's Chromium for the browser tests, and mkdocs with the material
# theme to build the sample TechDocs. Idempotent; skips what is present.
set -euo pipefail
need=()
[ -f /usr/share/hunspell/cs_CZ.dic ] || need+=(hunspell-cs)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v mkdocs >/dev/null || need+=(mkdocs)
[ -d /usr/share/mkdocs/themes/material ] || need+=(mkdocs-material)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "install-system-deps: need root to apt-get install ${need[*]}" >&2; exit 1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
