#!/usr/bin/env bash
# Where the server's time goes under the load run's mix: `perf record` (software clock, call graphs) of one variant's
# release build for 10 s of a 64-connection load, then the symbols that took the most samples, inclusive and self.
#
#   scripts/profile.sh library|plain [OUTPUT_DIRECTORY]
#
# Needs perf (Debian's linux-perf). The load runs on 127.0.0.1 only, on a port the system picks.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?usage: $0 library|plain [OUTPUT_DIRECTORY]}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
swift build -c release --product BookshelfServer >/dev/null
swift build -c release --product BookshelfLoad >/dev/null
bin=.build/release
rm -f "$out/$variant.sqlite"*
"$bin/BookshelfServer" --port 0 --database "$out/$variant.sqlite" --variant "$variant" >"$out/$variant.out" 2>"$out/$variant.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do grep -q '^listening on' "$out/$variant.out" && break; sleep 0.1; done
port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$out/$variant.out")
"$bin/BookshelfLoad" run --port "$port" --connections 64 --duration 14 --warmup 1 --seed-books --label "$variant" \
    --server-pid "$server" >"$out/$variant-load.txt" &
load=$!
# Past the seeding and the warm-up.
sleep 4
perf record -F 499 -g -o "$out/$variant.perf" -p "$server" -- sleep 10 2>/dev/null
wait "$load"
cat "$out/$variant-load.txt"
echo "== $variant: self time, top 25"
perf report -i "$out/$variant.perf" --no-children --sort symbol --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -25
echo "== $variant: inclusive time, top 40"
perf report -i "$out/$variant.perf" --children --sort symbol --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -40
echo "perf data: $out/$variant.perf"
