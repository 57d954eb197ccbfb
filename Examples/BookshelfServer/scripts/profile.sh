#!/usr/bin/env bash
# Where the server's time goes under the load run's mix: `perf record` (software clock, call graphs) of one variant's
# release build for 10 s of a 64-connection load, then the symbols that took the most samples, inclusive and self.
#
#   scripts/profile.sh library|plain [--postgres] [OUTPUT_DIRECTORY]
#
# Over SQLite by default; with --postgres, over a PostgreSQL server of its own (scripts/postgres.sh, stopped at the
# end), one instance, the database's CPU a request reported apart by the load run. Needs perf (Debian's linux-perf).
# The load runs on 127.0.0.1 only, on ports the system picks.
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?usage: $0 library|plain [--postgres] [OUTPUT_DIRECTORY]}
shift
postgres=false
if [ "${1:-}" = --postgres ]; then postgres=true; shift; fi
out=${1:-$(mktemp -d)}
mkdir -p "$out"
swift build -c release --product BookshelfServer >/dev/null
swift build -c release --product BookshelfLoad >/dev/null
bin=.build/release
server=""
postgres_dir=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    [ -n "$postgres_dir" ] && scripts/postgres.sh stop "$postgres_dir" 0 >/dev/null 2>&1
    return 0
}
trap cleanup EXIT
database_options=()
if $postgres; then
    chmod 711 "$out"
    postgres_dir="$out/postgres"
    rm -rf "$postgres_dir"
    postgres_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    database=$(scripts/postgres.sh start "$postgres_dir" "$postgres_port" bookshelf)
    name="$variant-postgres"
    database_options=(--database-pid "$(head -n 1 "$postgres_dir/postmaster.pid")")
else
    name=$variant
    database="$out/$variant.sqlite"
    rm -f "$database"*
fi
"$bin/BookshelfServer" --port 0 --database "$database" --variant "$variant" >"$out/$name.out" 2>"$out/$name.log" &
server=$!
for _ in $(seq 1 600); do grep -q '^listening on' "$out/$name.out" && break; sleep 0.1; done
port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$out/$name.out")
"$bin/BookshelfLoad" run --port "$port" --connections 64 --duration 14 --warmup 1 --seed-books --label "$name" \
    --server-pid "$server" "${database_options[@]}" >"$out/$name-load.txt" &
load=$!
# Past the seeding and the warm-up.
sleep "$($postgres && echo 8 || echo 4)"
perf record -F 499 -g -o "$out/$name.perf" -p "$server" -- sleep 10 2>/dev/null
wait "$load"
cat "$out/$name-load.txt"
echo "== $name: self time, top 25"
perf report -i "$out/$name.perf" --no-children --sort symbol --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -25
echo "== $name: inclusive time, top 40"
perf report -i "$out/$name.perf" --children --sort symbol --stdio 2>/dev/null | grep -E '^ +[0-9]' | head -40
echo "perf data: $out/$name.perf"
