#!/bin/sh
# Regenerates what is derived from the command-line definitions: the man page
# (docs/vtourist.1: swift-argument-parser's generate-manual plugin, then the
# hand-written sections of docs/vtourist.1.in), the shell completions
# (completions/) and docs/cli-help.json, which the tests compare with the
# binary's own to tell when these files are stale. Run by `make cli-docs`.
set -eu
cd "$(dirname "$0")/.."
bin=.build/release/vtourist
swift build -c release --product vtourist
swift package --allow-writing-to-package-directory generate-manual --date 2026-11-23 >/dev/null
# The generated page ends without a newline, and its EXIT STATUS says only "0 or >0": awk ends
# every line, and the section comes from docs/vtourist.1.in instead.
awk '!/^\.Sh "EXIT STATUS"$/ && !/^\.Ex -std$/' .build/plugins/GenerateManual/outputs/vtourist/vtourist.1 \
  | cat - docs/vtourist.1.in > docs/vtourist.1
"$bin" --experimental-dump-help > docs/cli-help.json
for shell in bash zsh fish; do
  "$bin" --generate-completion-script "$shell" > "completions/vtourist.$shell"
done
echo "docs/vtourist.1, docs/cli-help.json and completions/ are up to date"
