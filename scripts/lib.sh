# Shared helpers for the build and test scripts. Source it; do not run it.

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# ensure_debian_packages PKG... : installs the Debian packages that are missing. Needs root (or
# sudo); the project's scripts use it for the WebAssembly toolchain, Chromium and PostgreSQL.
ensure_debian_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null; then
    echo "Missing packages (${missing[*]}) and no apt-get to install them: install them by hand." >&2
    return 1
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "Installing Debian packages: ${missing[*]}"
  # The package lists may be missing or stale on a fresh machine; refresh them once.
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
