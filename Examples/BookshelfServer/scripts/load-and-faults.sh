#!/usr/bin/env bash
# The bookshelf server's load comparison and fault runs, in one go; one line per check, `N passed, M failed` last.
#
#   scripts/load-and-faults.sh [--short] [--debug] [--postgres] [--chart FILE] [--markdown FILE]
#
# With --postgres, the same kinds of runs over PostgreSQL instead, with two instances on one database (see
# scripts/load-and-faults-postgres.sh, which this script runs then): a server of its own is started and stopped
# by scripts/postgres.sh.
#
# 1. Load: each variant (plain, then library, then library, then plain: ABBA, so a drift of the machine's load
#    falls on both) on a fresh database seeded with the 10,000 books, 64 keep-alive connections for 30 s (10 s and
#    one round each with --short) of 80% GET / 15% PUT / 5% DELETE; the report compares the means against the
#    targets (library throughput >= 0.95x plain, p99 <= 1.10x). With --short the targets are printed as INFO, not
#    counted: ten seconds on a shared CI machine measure the machine more than the library.
# 2. SIGTERM under load: the server exits 0 within its deadline, every request it accepted is answered whole, new
#    connections are refused, and the services hear their tear-down in reverse order.
# 3. SIGKILL under PUT-heavy load, 10 rounds (1 with --short): restarted on the same database, the server starts and
#    holds every PUT the generator saw acknowledged, with its body.
# 4. Bad input: each gets a 4xx with a JSON error, the server keeps serving, nothing is written.
#
# Servers listen on ports the system picks (--port 0), on 127.0.0.1 only. Builds in release (--debug: the debug
# build, as CI's short run does to reuse the test build). Run from anywhere.
set -uo pipefail
cd "$(dirname "$0")/.."

short=false
postgres=false
configuration=release
chart=""
markdown=""
while [ $# -gt 0 ]; do
    case "$1" in
        --short) short=true ;;
        --debug) configuration=debug ;;
        --postgres) postgres=true ;;
        --chart) chart="$2"; shift ;;
        --markdown) markdown="$2"; shift ;;
        *) echo "usage: $0 [--short] [--debug] [--postgres] [--chart FILE] [--markdown FILE]" >&2; exit 64 ;;
    esac
    shift
done
if $short; then load_seconds=10; kill_rounds=1; order="plain library"; else load_seconds=30; kill_rounds=10; order="plain library library plain"; fi

work=$(mktemp -d)
server_pid=""
load_pid=""
postgres_dir=""
postgres_port=""
server_options=()
cleanup() {
    # Only the processes this script started and has not waited for yet (its jobs), by their ids; and the
    # PostgreSQL server it started, if any.
    for pid in $(jobs -p); do kill -KILL "$pid" 2>/dev/null; done
    [ -n "$postgres_dir" ] && scripts/postgres.sh stop "$postgres_dir" "$postgres_port" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
# Killed or interrupted, it still cleans up (the EXIT trap runs on exit, not on a signal's default action).
trap 'exit 143' TERM
trap 'exit 130' INT

passed=0
failed=0
lines=()
check() { # NAME PASSED(true|false) DETAIL
    local line
    if [ "$2" = true ]; then line="PASS $1: $3"; passed=$((passed + 1)); else line="FAIL $1: $3"; failed=$((failed + 1)); fi
    lines+=("$line")
    echo "$line"
}

echo "== building ($configuration)"
swift build -c "$configuration" --product BookshelfServer >"$work/build.log" 2>&1 &&
    swift build -c "$configuration" --product BookshelfLoad >>"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    echo "0 passed, 1 failed"
    exit 1
}
bin=".build/$configuration"
load="$bin/BookshelfLoad"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# start_server NAME VARIANT DATABASE [PORT]: starts the server (on PORT, or one the system picks), waits for its
# `listening on` line, sets $server_pid and $port.
start_server() {
    local name=$1
    : >"$work/$name.out"
    "$bin/BookshelfServer" --port "${4:-0}" --database "$3" --variant "$2" --stats-interval 5 "${server_options[@]}" \
        >"$work/$name.out" 2>"$work/$name.log" &
    server_pid=$!
    port=""
    for _ in $(seq 1 600); do
        port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$work/$name.out")
        [ -n "$port" ] && return 0
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "the server ($name) did not start:" >&2
    tail -n 20 "$work/$name.log" >&2
    return 1
}

# stop_server: SIGTERM, then waits; sets $status and $stop_ms.
stop_server() {
    local start
    start=$(date +%s%N)
    kill -TERM "$server_pid" 2>/dev/null
    wait "$server_pid"
    status=$?
    stop_ms=$(( ($(date +%s%N) - start) / 1000000 ))
    server_pid=""
}

json() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }

# report_checks FILE PREFIX: prints a `report`'s table (and writes it to --markdown's file), then counts its target
# lines as checks named PREFIX + the line's name; with --short, prints them as INFO instead.
report_checks() {
    local line name detail
    grep -v '^PASS\|^FAIL' "$1"
    [ -n "$markdown" ] && grep -v '^PASS\|^FAIL' "$1" >"$markdown"
    while IFS= read -r line; do
        name=${line#* }; name="$2${name%%: *}"; detail=${line#*: }
        if $short; then
            echo "INFO (not counted in a short run) $line"
        else
            check "$name" "$([ "${line%% *}" = PASS ] && echo true || echo false)" "$detail"
        fi
    done < <(grep '^PASS\|^FAIL' "$1")
}

# sigterm_checks LABEL NAME SERVICE CLOSED: the checks of a server NAME stopped by SIGTERM under load (its log
# $work/NAME.log, the load's result $work/NAME.json): it exits 0 within its deadline, every request it accepted was
# answered whole, new connections are refused, and its registry services (HealthService, then the database service
# SERVICE) hear their tear-down in reverse order, the database service saying CLOSED (a pattern) once.
sigterm_checks() {
    local label=$1 log="$work/$2.log" result="$work/$2.json" service=$3 closing=$4
    local stats accepted answered received truncated unanswered after refused order said
    check "$label: the server exits 0 within the deadline" \
        "$([ "$status" -eq 0 ] && [ "$stop_ms" -lt 30000 ] && echo true || echo false)" \
        "exit $status after $stop_ms ms (deadline 30 s)"
    stats=$(sed -n 's/.*stats at exit: accepted \([0-9]*\), answered \([0-9]*\).*/\1 \2/p' "$log")
    accepted=${stats% *}; answered=${stats#* }
    received=$(json "$result" answeredInAll)
    truncated=$(json "$result" truncated)
    unanswered=$(json "$result" unanswered)
    check "$label: every request the server accepted got its full answer" \
        "$([ -n "$accepted" ] && [ "$accepted" = "$answered" ] && [ "$received" = "$accepted" ] && [ "$truncated" -eq 0 ] && echo true || echo false)" \
        "server accepted ${accepted:-?} and answered ${answered:-?}; the clients received $received whole, $truncated truncated, $unanswered sent on connections closed before reading them"
    after=$(json "$result" connectsAcceptedAfterShutdown)
    refused=$(json "$result" connectsRefused)
    check "$label: new connections are refused after" \
        "$([ "$after" -eq 0 ] && [ "$refused" -gt 0 ] && echo true || echo false)" \
        "$refused connects refused, $after accepted after the server began closing connections"
    order=$(sed -n 's/.*\] \([A-Za-z]*Service\) heard willTerminate.*/\1/p' "$log" | tr '\n' ' ')
    said=$(grep -c "$closing" "$log")
    check "$label: the services hear their tear-down in reverse order" \
        "$([ "$order" = "HealthService $service " ] && [ "$said" -eq 1 ] && echo true || echo false)" \
        "willTerminate: ${order% }; $(grep -o "$closing.*" "$log" | head -n 1 | cut -c1-120)"
}

if $postgres; then
    # shellcheck source=load-and-faults-postgres.sh
    source scripts/load-and-faults-postgres.sh
    postgres_runs
    echo
    echo "== summary"
    for line in "${lines[@]}"; do echo "$line"; done
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

# --- 1. The load comparison --------------------------------------------------------------------------------------
plain_runs=""
library_runs=""
round=0
for variant in $order; do
    round=$((round + 1))
    name="load-$round-$variant"
    echo "== load: $variant ($load_seconds s, 64 connections)"
    if ! start_server "$name" "$variant" "$work/$name.sqlite"; then
        check "load: the $variant server starts" false "see above"
        continue
    fi
    "$load" run --port "$port" --connections 64 --duration "$load_seconds" --warmup 2 --seed-books \
        --server-pid "$server_pid" --json "$work/$name.json" --label "$variant"
    stop_server
    result="$work/$name.json"
    if [ -f "$result" ]; then
        bad=$(( $(json "$result" unexpected) + $(json "$result" unanswered) + $(json "$result" truncated) ))
        check "load: every $variant request answered as expected (round $round)" \
            "$([ "$bad" -eq 0 ] && [ "$status" -eq 0 ] && echo true || echo false)" \
            "$(json "$result" requests) measured, $bad unexpected, unanswered or truncated; exit $status"
        if [ "$variant" = plain ]; then plain_runs="$plain_runs,$result"; else library_runs="$library_runs,$result"; fi
    else
        check "load: the $variant run finished (round $round)" false "no result"
    fi
done
if [ -n "$plain_runs" ] && [ -n "$library_runs" ]; then
    echo "== load: library vs plain (means of the rounds)"
    report_args=(report --plain "${plain_runs#,}" --library "${library_runs#,}" --markdown)
    [ -n "$chart" ] && report_args+=(--svg "$chart")
    "$load" "${report_args[@]}" >"$work/report.txt"
    report_checks "$work/report.txt" ""
fi

# --- 2. SIGTERM under load ---------------------------------------------------------------------------------------
echo "== SIGTERM under a 64-connection load"
if start_server sigterm library "$work/sigterm.sqlite"; then
    "$load" run --port "$port" --connections 64 --duration 20 --warmup 0 --json "$work/sigterm.json" \
        --label sigterm >"$work/sigterm-load.txt" 2>&1 &
    load_pid=$!
    sleep 3
    stop_server
    wait "$load_pid"
    load_pid=""
    cat "$work/sigterm-load.txt"
    sigterm_checks SIGTERM sigterm DatabaseService "DatabaseService closed"
else
    check "SIGTERM: the server starts" false "see above"
fi

# --- 3. SIGKILL under PUT-heavy load -----------------------------------------------------------------------------
echo "== SIGKILL under a PUT-heavy load, $kill_rounds round(s), one database"
database="$work/sigkill.sqlite"
for round in $(seq 1 "$kill_rounds"); do
    if ! start_server "sigkill-$round" library "$database"; then
        check "SIGKILL round $round: the server starts on the database" false "see above"
        break
    fi
    "$load" run --port "$port" --connections 64 --duration 30 --warmup 0 --mix 20/80/0 --partition-ids \
        --seed "$round" --acked "$work/acked-$round.txt" --label "sigkill-$round" >"$work/sigkill-$round-load.txt" 2>&1 &
    load_pid=$!
    # Killed at a different moment each round, 1 to 3 s into the load.
    sleep "$(( 1 + round % 3 )).$(( (round * 37) % 10 ))"
    kill -KILL "$server_pid"
    wait "$server_pid" 2>/dev/null
    server_pid=""
    wait "$load_pid"
    load_pid=""
    if start_server "sigkill-$round-restart" library "$database"; then
        check "SIGKILL round $round: the server restarts on the database, no repair" true "listening on port $port"
        verdict=$("$load" verify --port "$port" --acked "$work/acked-$round.txt")
        detail=${verdict#*: }
        check "SIGKILL round $round: every acknowledged put is stored with its body" \
            "$([ "${verdict%% *}" = PASS ] && echo true || echo false)" "$detail"
        stop_server
    else
        check "SIGKILL round $round: the server restarts on the database, no repair" false "see above"
        break
    fi
done

# --- 4. Bad input ------------------------------------------------------------------------------------------------
echo "== bad input"
if start_server badinput library "$work/badinput.sqlite"; then
    "$load" run --port "$port" --connections 4 --duration 1 --warmup 0 --seed-books --ids 100 --label seed >/dev/null
    while IFS= read -r line; do
        name=${line#* }; name=${name%%: *}; detail=${line#*: }
        check "$name" "$([ "${line%% *}" = PASS ] && echo true || echo false)" "$detail"
    done < <("$load" probe --port "$port")
    stop_server
    check "bad input: the server stops cleanly afterwards" "$([ "$status" -eq 0 ] && echo true || echo false)" "exit $status"
fi

echo
echo "== summary"
for line in "${lines[@]}"; do echo "$line"; done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
