#!/bin/sh
# Builds folio in release mode and installs it under PREFIX (default /usr/local):
#   PREFIX/bin/folio, PREFIX/bin/folio-fetch (the network helper, beside folio),
#   PREFIX/share/man/man1/folio.1 and the bash, zsh and fish completions.
# Usage: Scripts/install.sh [PREFIX]
set -eu
prefix="${1:-/usr/local}"
cd "$(dirname "$0")/.."

swift build -c release --product folio
swift build -c release --product folio-fetch
bin="$(swift build -c release --show-bin-path)"

install -d "$prefix/bin" "$prefix/share/man/man1" \
  "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
  "$prefix/share/fish/vendor_completions.d"
install -m 755 "$bin/folio" "$bin/folio-fetch" "$prefix/bin/"
install -m 644 docs/man/folio.1 "$prefix/share/man/man1/folio.1"
"$bin/folio" completions bash > "$prefix/share/bash-completion/completions/folio"
"$bin/folio" completions zsh > "$prefix/share/zsh/site-functions/_folio"
"$bin/folio" completions fish > "$prefix/share/fish/vendor_completions.d/folio.fish"

echo "installed folio, folio-fetch, the man page and completions under $prefix"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on PATH; add it to use 'folio'" ;;
esac
