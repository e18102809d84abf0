#!/bin/sh
# Regenerates what is derived from the command-line definitions: the man page
# (docs/vtourist.1: swift-argument-parser's generate-manual tool, then the
# hand-written sections of docs/vtourist.1.in), the shell completions
# (completions/) and docs/cli-help.json, which the tests compare with the
# binary's own to tell when these files are stale. Run by `make cli-docs`.
set -eu
cd "$(dirname "$0")/.."
bin=.build/release/vtourist
swift build -c release --product vtourist
swift build -c release --product generate-manual
tool="$(swift build -c release --show-bin-path)/generate-manual"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# generate-manual keeps only the ASCII characters of the help (40°51′N would read 4051N): it is
# given a help dump with every other character written @u2032@, which sed turns into groff's \[u2032].
printf '#!/bin/sh\n"%s" "$@" | perl -CSD -pe '\''s/([^\\x00-\\x7F])/sprintf("\\@u%%04X\\@", ord($1))/ge'\''\n' \
  "$PWD/$bin" > "$work/vtourist"
chmod +x "$work/vtourist"
mkdir "$work/out"
"$tool" "$work/vtourist" --date 2026-11-23 -o "$work/out"
# The generated page ends without a newline, and its EXIT STATUS says only "0 or >0": awk ends
# every line, and the section comes from docs/vtourist.1.in instead.
awk '!/^\.Sh "EXIT STATUS"$/ && !/^\.Ex -std$/' "$work/out/vtourist.1" \
  | sed 's/@u\([0-9A-F]\{4,6\}\)@/\\[u\1]/g' | cat - docs/vtourist.1.in > docs/vtourist.1
"$bin" --experimental-dump-help > docs/cli-help.json
for shell in bash zsh fish; do
  "$bin" --generate-completion-script "$shell" > "completions/vtourist.$shell"
done
echo "docs/vtourist.1, docs/cli-help.json and completions/ are up to date"
