#!/usr/bin/env bash
# Installs whatever the build and the tests need and this machine lacks, then nothing else:
# Debian packages through apt-get (as root, or with sudo), npm packages through `npm ci`.
# Run by `npm start` and `npm test` before anything else, so a fresh clone needs no
# hand-installed step. On a machine without apt-get it names what is missing and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
have() { command -v "$1" >/dev/null 2>&1; }
have cmake || missing+=(cmake)
have g++ || missing+=(g++)
have clang++-14 || missing+=(clang-14)
have clang-format || missing+=(clang-format)
# libFuzzer's runtime (scripts/fuzz.sh); clang-14 only recommends it.
[ -n "$(ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a 2>/dev/null)" ] || missing+=(libclang-rt-14-dev)
[ -e /usr/include/catch2/catch.hpp ] || [ -e /usr/include/catch2/catch_all.hpp ] || missing+=(catch2)
[ -e /usr/include/nlohmann/json.hpp ] || missing+=(nlohmann-json3-dev)
have em++ || missing+=(emscripten)
# The relaxed-SIMD kernel module (scripts/build-relaxed.sh): Emscripten 3.1.6 cannot link it.
have clang-19 || missing+=(clang-19)
[ -x /usr/lib/llvm-19/bin/wasm-ld ] || have wasm-ld-19 || missing+=(lld-19)
have chromium || missing+=(chromium)
# The engine suite (web/test/engines.test.mjs): Firefox, and WebKitGTK's WebDriver (which
# brings its MiniBrowser) drawing into a private X server, since WebKitGTK has no headless mode.
have firefox-esr || missing+=(firefox-esr)
have WebKitWebDriver || missing+=(webkit2gtk-driver)
have Xvfb || missing+=(xvfb)

if [ ${#missing[@]} -gt 0 ]; then
  if ! have apt-get; then
    echo "setup: please install: ${missing[*]} (Debian package names; see README)" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then sudo=(); elif have sudo; then sudo=(sudo); else
    echo "setup: missing ${missing[*]}; run as root or with sudo to install them" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -e node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# The commit-msg hook that holds commit subjects to CONTRIBUTING.md's convention, in clones only.
if hooks=$(git rev-parse --git-path hooks 2>/dev/null); then
  mkdir -p "$hooks"
  cmp -s scripts/commit-msg "$hooks/commit-msg" || cp scripts/commit-msg "$hooks/commit-msg"
fi
