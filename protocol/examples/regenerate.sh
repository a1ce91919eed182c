#!/usr/bin/env bash
# Regenerate the example transcripts (what seat 0's bot received and sent) and the schemas.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
bot="python3 tests/scripted_bots/first_legal.py"
referee play "$bot" "$bot" "$bot" --edition protocol/examples/tiny.toml --seed 4 \
  --transcript-dir "$tmp/a" > /dev/null
cp "$tmp/a/first_legal-1.transcript.jsonl" protocol/examples/short_game.jsonl
referee play "illegal=python3 tests/scripted_bots/illegal.py --kind over_money" "$bot" "$bot" \
  --edition protocol/examples/tiny.toml --seed 5 --variant mystery --variant split-double \
  --variant hidden-money --transcript-dir "$tmp/b" > /dev/null
cp "$tmp/b/illegal.transcript.jsonl" protocol/examples/warnings_mystery.jsonl
python -m referee.protocol.schema protocol/schema > /dev/null
rm -rf "$tmp"
