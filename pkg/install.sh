#!/usr/bin/env bash
# pkg/install.sh [PREFIX]: installs a built jsalt (mvn -B -q package -DskipTests) as PREFIX/bin and
# PREFIX/lib (default /opt/jsalt), replacing the jars of an earlier install. Units, logrotate and config
# are separate steps: see README.md, "Install".
set -euo pipefail
src="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
prefix="${1:-/opt/jsalt}"
jar=$(ls "$src"/client-cli/target/jsalt-client-cli-*.jar 2>/dev/null | head -n 1 || true)
if [ -z "$jar" ] || [ ! -d "$src/client-cli/target/lib" ]; then
  echo "jsalt is not built yet: run the build first (cd $src && mvn -B -q package -DskipTests)" >&2
  exit 78
fi
install -d -m 0755 "$prefix/bin" "$prefix/lib"
rm -f "$prefix"/lib/*.jar
install -m 0644 "$jar" "$src"/client-cli/target/lib/*.jar "$prefix/lib/"
for tool in jsalt jsalt-key jsalt-run jsalt-call jsalt-event jsalt-master jsalt-minion jsalt-api; do
  install -m 0755 "$src/bin/$tool" "$prefix/bin/"
done
install -m 0644 "$src/bin/jsalt-env" "$prefix/bin/"
# shell completion (bash, and zsh through bashcompinit): in PREFIX, and where bash-completion looks when it is
# installed (COMPLETION_DIR, default /etc/bash_completion.d if present; COMPLETION_DIR= to skip)
install -d -m 0755 "$prefix/share/bash-completion/completions"
install -m 0644 "$src"/pkg/completion/jsalt* "$prefix/share/bash-completion/completions/"
completion_dir="${COMPLETION_DIR-/etc/bash_completion.d}"
if [ -n "$completion_dir" ] && [ -d "$completion_dir" ]; then
  install -m 0644 "$src"/pkg/completion/jsalt* "$completion_dir/"
fi
install -m 0644 "$src/README.md" "$prefix/"
echo "installed jsalt in $prefix"
