#!/usr/bin/env bash
# One-time set-up on a fresh Debian machine; safe to run again (it skips what is already there).
#   scripts/setup.sh          runtime only: run the monitor (audit, live, watch, detect, rules commands)
#   scripts/setup.sh dev      + tests, linters, the renderer (what .ci/run uses)
#   scripts/setup.sh train    + detector training (ultralytics and its torch, several GB)
# Debian packages: gnome-cards-data and kdegames-card-data-kf5 (the real card artwork the renderer
# and the training data use; the KDE decks include the clean held-out kde-standard), librsvg2-bin
# (rsvg-convert, which rasterises the KDE decks card by card) and ffmpeg (the renderer's H.264
# encoder). The runtime monitor needs none of them. With any extra, also the outline fonts that
# `paigow-monitor export-synthetic-indices` draws card indices in, and four training decks from the
# npm registry (render/npm_decks.py).
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"

need_debian=0
if [ -n "$extras" ]; then
  if [ ! -f /usr/share/aisleriot/cards/anglo.svgz ] || [ ! -f /usr/share/carddecks/svg-standard/standard.svgz ] \
    || ! command -v rsvg-convert >/dev/null 2>&1 || ! command -v ffmpeg >/dev/null 2>&1; then
    need_debian=1
  fi
fi
fonts="fonts-urw-base35 fonts-liberation2 fonts-freefont-ttf fonts-croscore fonts-crosextra-carlito
  fonts-crosextra-caladea fonts-linuxlibertine fonts-open-sans fonts-lato fonts-cantarell fonts-texgyre
  fonts-league-spartan fonts-roboto-unhinted"
want_fonts=0
if [ -n "$extras" ] && [ ! -f /usr/share/fonts/truetype/lato/Lato-Regular.ttf ]; then
  want_fonts=1
  need_debian=1
fi
if [ "$need_debian" = 1 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "setup: installing Debian packages gnome-cards-data kdegames-card-data-kf5 librsvg2-bin ffmpeg"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
    gnome-cards-data kdegames-card-data-kf5 librsvg2-bin ffmpeg >/dev/null
  if [ "$want_fonts" = 1 ]; then
    echo "setup: installing Debian font packages for synthetic card indices"
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends $fonts >/dev/null
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
spec="."
[ -n "$extras" ] && spec=".[$extras]"
echo "setup: pip install -e $spec"
.venv/bin/python -m pip install -q -e "$spec" 2>&1 | grep -v -E "^(WARNING: Location|  )" || true
if [ -n "$extras" ]; then
  # four more training decks: SVG cards in pinned npm packages, checked against their sha512
  # (render/npm_decks.py); fetched once from the npm registry into ~/.cache/paigow-monitor/npm-decks
  .venv/bin/python -m render.npm_decks
fi
echo "setup: done"
