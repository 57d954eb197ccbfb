# The PostgreSQL runs of scripts/load-and-faults.sh --postgres, which sources this file (it uses that script's
# check, start_server, stop_server, json, report_checks, sigterm_checks, $bin, $load, $work, $short and $order).
# One PostgreSQL server of the run's own (scripts/postgres.sh, on a free port of 127.0.0.1, fsync and synchronous_commit on), a fresh database
# for each part, two server instances on it wherever instances share one:
#
# 1. Load, library against plain: each variant as two instances on one database, 64 connections spread over both,
#    ABBA order (AB with --short); throughput >= 0.95x, p99 <= 1.10x, the servers' CPU a request <= 1.10x (the
#    database's CPU counted apart, in its own column).
# 2. Two instances, one database: every 100th acknowledged PUT is read back at once through the other instance;
#    every GET answers what was acknowledged; psql shows every acknowledged PUT with its body, and as many books as
#    each instance lists.
# 3. An instance killed: 5 rounds (1 with --short) of SIGKILL to one instance under a PUT-heavy load on both, then
#    a restart on its port: the other answers everything as expected, none slower than 1 s; the restarted one
#    answers a GET within 5 s of its start; psql shows every PUT either acknowledged.
# 4. The database restarted: `pg_ctl stop -m fast` under load on both, 3 s down, then started again: 503 with a
#    JSON error within 1 s while down, no 500, no PUT acknowledged; both serve again within 10 s of its return,
#    never restarted; psql shows every PUT acknowledged before and after.
# 5. SIGTERM under load, as over SQLite: exit 0, every request read answered whole, new connections refused, the
#    tear-down in reverse order with the client still running for it, acknowledged PUTs kept.

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
now_ms() { date +%s%3N; }

# new_database NAME: creates database NAME on the run's server and prints its URL.
new_database() {
    scripts/postgres.sh psql "$postgres_dir" "$postgres_port" postgres -c "CREATE DATABASE $1" >/dev/null &&
        echo "postgres://postgres@127.0.0.1:$postgres_port/$1"
}

# dump DATABASE FILE: every book's id and title, as psql reads them from the table.
dump() {
    scripts/postgres.sh psql "$postgres_dir" "$postgres_port" "$1" -At -F $'\t' -c "SELECT id, body->>'title' FROM books" >"$2"
}

postmaster_pid() { head -n 1 "$postgres_dir/postmaster.pid"; }

# start_pair NAME VARIANT URL: two instances on the database; sets $pid_a $port_a $pid_b $port_b.
start_pair() {
    start_server "$1-a" "$2" "$3" || return 1
    pid_a=$server_pid port_a=$port
    start_server "$1-b" "$2" "$3" || return 1
    pid_b=$server_pid port_b=$port
}

# stop_pair: SIGTERM to both; sets $status_a $status_b.
stop_pair() {
    server_pid=$pid_a; stop_server; status_a=$status
    server_pid=$pid_b; stop_server; status_b=$status
}

# port_stat FILE PORT FIELD: a number from a run's per-port figures (0 when the port answered nothing).
port_stat() {
    python3 -c "import json,sys; p=json.load(open(sys.argv[1])).get('byPort') or {}; print(p.get(sys.argv[2], {}).get(sys.argv[3], 0))" "$1" "$2" "$3"
}

# verify_stored NAME DATABASE ACKED: the acknowledged PUTs of ACKED against psql's dump of DATABASE.
verify_stored() {
    dump "$2" "$work/$1-stored.txt"
    local verdict
    verdict=$("$load" verify --stored "$work/$1-stored.txt" --acked "$3")
    check "$1: every acknowledged PUT is in PostgreSQL with its body (psql)" \
        "$([ "${verdict%% *}" = PASS ] && echo true || echo false)" "${verdict#*: }"
}

postgres_runs() {
    chmod 711 "$work" # the server runs as the postgres user under root: it must reach its directory
    postgres_dir="$work/postgres"
    postgres_port=$(free_port)
    echo "== PostgreSQL: a server of the run's own on 127.0.0.1:$postgres_port"
    if ! scripts/postgres.sh start "$postgres_dir" "$postgres_port" bookshelf >"$work/postgres-start.txt" 2>&1; then
        check "PostgreSQL starts (scripts/postgres.sh start)" false "$(tail -n 3 "$work/postgres-start.txt" | tr '\n' ' ')"
        postgres_dir=""
        return
    fi
    echo "$(scripts/postgres.sh psql "$postgres_dir" "$postgres_port" postgres -Atc 'SHOW server_version') on $postgres_dir; fsync" \
        "$(scripts/postgres.sh psql "$postgres_dir" "$postgres_port" postgres -Atc 'SHOW fsync'), synchronous_commit" \
        "$(scripts/postgres.sh psql "$postgres_dir" "$postgres_port" postgres -Atc 'SHOW synchronous_commit')"
    # With --short (CI's debug build, where a request costs about ten times its release CPU), 2,000 books are
    # seeded instead of 10,000,
    local kill_rounds_pg two_seconds restart_seconds ids
    # and the fault parts load with 16 connections rather than 64, so that a debug build's queue stays under the
    # 1 s those parts allow.
    local fault_connections
    if $short; then
        kill_rounds_pg=1 two_seconds=10 restart_seconds=20 ids=2000 fault_connections=16
    else
        kill_rounds_pg=5 two_seconds=30 restart_seconds=25 ids=10000 fault_connections=64
    fi
    # The debug build on a busy machine can take longer than the 0.75 s a database call gets by default: where a
    # part checks correctness alone, its instances give each call 5 s. The instance-killed and restart parts keep
    # the default, since their checks are about answering within 1 s.
    local relaxed=()
    [ "$configuration" = debug ] && relaxed=(--database-timeout 5)

    # --- 1. The load comparison, two instances a variant ---------------------------------------------------------
    local plain_runs="" library_runs="" round=0 variant name url result bad
    for variant in $order; do
        round=$((round + 1))
        name="pg-load-$round-$variant"
        echo "== load over PostgreSQL: $variant, two instances ($load_seconds s, 64 connections), load average $(cut -d' ' -f1-3 /proc/loadavg)"
        url=$(new_database "load_${round}_$variant")
        server_options=("${relaxed[@]}")
        if ! start_pair "$name" "$variant" "$url"; then
            server_options=()
            check "load (PostgreSQL): the $variant instances start" false "see above"
            continue
        fi
        "$load" run --ports "$port_a,$port_b" --connections 64 --duration "$load_seconds" --warmup 2 --seed-books --ids "$ids" \
            --server-pid "$pid_a,$pid_b" --database-pid "$(postmaster_pid)" --json "$work/$name.json" --label "$variant"
        stop_pair
        server_options=()
        result="$work/$name.json"
        if [ -f "$result" ]; then
            bad=$(( $(json "$result" unexpected) + $(json "$result" unanswered) + $(json "$result" truncated) ))
            check "load (PostgreSQL): every $variant request answered as expected (round $round)" \
                "$([ "$bad" -eq 0 ] && [ "$status_a" -eq 0 ] && [ "$status_b" -eq 0 ] && echo true || echo false)" \
                "$(json "$result" requests) measured, $bad unexpected, unanswered or truncated; exits $status_a and $status_b"
            if [ "$variant" = plain ]; then plain_runs="$plain_runs,$result"; else library_runs="$library_runs,$result"; fi
        else
            check "load (PostgreSQL): the $variant run finished (round $round)" false "no result"
        fi
    done
    if [ -n "$plain_runs" ] && [ -n "$library_runs" ]; then
        echo "== load over PostgreSQL: library vs plain (means of the rounds)"
        "$load" report --plain "${plain_runs#,}" --library "${library_runs#,}" --markdown --cpu-target 1.10 >"$work/pg-report.txt"
        report_checks "$work/pg-report.txt" "PostgreSQL: "
    fi

    # --- 2. Two instances, one database -------------------------------------------------------------------------
    echo "== two instances, one database ($two_seconds s, 64 connections over both, every 100th PUT read back)"
    url=$(new_database two)
    server_options=("${relaxed[@]}")
    if start_pair two library "$url"; then
        server_options=()
        "$load" run --ports "$port_a,$port_b" --connections 64 --duration "$two_seconds" --warmup 0 --mix 60/35/5 --ids "$ids" \
            --partition-ids --check-reads --readback-every 100 --acked "$work/two-acked.txt" --json "$work/two.json" \
            --label two-instances
        local readbacks mismatches
        readbacks=$(json "$work/two.json" readbacks)
        mismatches=$(python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['readbackMismatches']; print(len(m), '; '.join(m[:3]))" "$work/two.json")
        check "two instances: every 100th acknowledged PUT reads back at once through the other instance" \
            "$([ "$readbacks" -gt 0 ] && [ "${mismatches%% *}" = 0 ] && echo true || echo false)" \
            "$readbacks read back, ${mismatches%% *} different${mismatches#0}"
        local unexpected_a unexpected_b wrong_a wrong_b
        unexpected_a=$(port_stat "$work/two.json" "$port_a" unexpected); wrong_a=$(port_stat "$work/two.json" "$port_a" wrongReads)
        unexpected_b=$(port_stat "$work/two.json" "$port_b" unexpected); wrong_b=$(port_stat "$work/two.json" "$port_b" wrongReads)
        check "two instances: both answer every request as expected, every GET what was acknowledged through either" \
            "$([ $((unexpected_a + unexpected_b + wrong_a + wrong_b)) -eq 0 ] && echo true || echo false)" \
            "port $port_a: $(port_stat "$work/two.json" "$port_a" answered) answered, $unexpected_a unexpected, $wrong_a wrong reads; port $port_b: $(port_stat "$work/two.json" "$port_b" answered) answered, $unexpected_b unexpected, $wrong_b wrong reads"
        verify_stored "two instances" two "$work/two-acked.txt"
        local counted listed_a listed_b
        counted=$(scripts/postgres.sh psql "$postgres_dir" "$postgres_port" two -Atc "SELECT count(*) FROM books")
        listed_a=$(python3 -c "import json,sys,urllib.request; print(len(json.load(urllib.request.urlopen(f'http://127.0.0.1:{sys.argv[1]}/books', timeout=30))))" "$port_a")
        listed_b=$(python3 -c "import json,sys,urllib.request; print(len(json.load(urllib.request.urlopen(f'http://127.0.0.1:{sys.argv[1]}/books', timeout=30))))" "$port_b")
        check "two instances: each lists the books psql counts in the table" \
            "$([ -n "$counted" ] && [ "$counted" = "$listed_a" ] && [ "$counted" = "$listed_b" ] && echo true || echo false)" \
            "psql counts $counted; GET /books lists $listed_a on port $port_a, $listed_b on port $port_b"
        stop_pair
    else
        server_options=()
        check "two instances: both start on one database" false "see above"
    fi

    # --- 3. An instance killed ----------------------------------------------------------------------------------
    echo "== an instance killed under a PUT-heavy load on both ($fault_connections connections), $kill_rounds_pg round(s), one database"
    url=$(new_database killed)
    if start_pair killed library "$url"; then
        local victim_pid victim_port other_port started answered_at elapsed slowest_other
        for round in $(seq 1 "$kill_rounds_pg"); do
            "$load" run --ports "$port_a,$port_b" --connections "$fault_connections" --duration 6 --warmup 0 --mix 20/80/0 --partition-ids \
                --check-reads --reconnect --seed "$round" --acked "$work/killed-acked-$round.txt" \
                --json "$work/killed-$round.json" --label "killed-$round" >"$work/killed-$round-load.txt" 2>&1 &
            load_pid=$!
            # A different instance, and a different moment 1 to 3 s in, each round.
            sleep "$(( 1 + round % 3 )).$(( (round * 37) % 10 ))"
            if [ $((round % 2)) -eq 1 ]; then victim_pid=$pid_a victim_port=$port_a other_port=$port_b; else victim_pid=$pid_b victim_port=$port_b other_port=$port_a; fi
            kill -KILL "$victim_pid"
            wait "$victim_pid" 2>/dev/null
            started=$(now_ms)
            if start_server "killed-$round-restart" library "$url" "$victim_port"; then
                answered_at=""
                for _ in $(seq 1 100); do
                    if python3 -c "import sys,urllib.request,urllib.error
try: urllib.request.urlopen(f'http://127.0.0.1:{sys.argv[1]}/books/book-0', timeout=5)
except urllib.error.HTTPError as e: sys.exit(0 if e.code == 404 else 1)
except Exception: sys.exit(1)" "$victim_port"; then answered_at=$(now_ms); break; fi
                    sleep 0.05
                done
                elapsed=$(( ${answered_at:-99999999999999} - started ))
                check "instance killed, round $round: restarted on its port, it answers a GET within 5 s of its start" \
                    "$([ -n "$answered_at" ] && [ "$elapsed" -le 5000 ] && echo true || echo false)" \
                    "port $victim_port: $([ -n "$answered_at" ] && echo "answered $elapsed ms after its start" || echo "no answer")"
                if [ "$victim_pid" = "$pid_a" ]; then pid_a=$server_pid; else pid_b=$server_pid; fi
            else
                check "instance killed, round $round: restarted on its port" false "see above"
                wait "$load_pid"; load_pid=""
                break
            fi
            wait "$load_pid"
            load_pid=""
            local result="$work/killed-$round.json" answered unexpected wrong
            answered=$(port_stat "$result" "$other_port" answered)
            unexpected=$(port_stat "$result" "$other_port" unexpected)
            wrong=$(port_stat "$result" "$other_port" wrongReads)
            slowest_other=$(port_stat "$result" "$other_port" maxMilliseconds)
            check "instance killed, round $round: the other instance answers every request as expected, none slower than 1 s" \
                "$([ "$answered" -gt 0 ] && [ $((unexpected + wrong)) -eq 0 ] && [ "$(port_stat "$result" "$other_port" lost)" -eq 0 ] && python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 1000 else 1)" "$slowest_other" && echo true || echo false)" \
                "port $other_port: $answered answered, $unexpected unexpected, $wrong wrong reads (a 404 for an acknowledged book among them), the slowest in $(printf '%.1f' "$slowest_other") ms; port $victim_port: $(port_stat "$result" "$victim_port" lost) lost at the kill"
            verify_stored "instance killed, round $round" killed "$work/killed-acked-$round.txt"
        done
        stop_pair
    else
        check "instance killed: both start on one database" false "see above"
    fi

    # --- 4. The database restarted ------------------------------------------------------------------------------
    echo "== the database restarted under load on both instances ($fault_connections connections; pg_ctl stop -m fast, 3 s down, start)"
    url=$(new_database restarted)
    if start_pair restarted library "$url"; then
        "$load" run --ports "$port_a,$port_b" --connections "$fault_connections" --duration "$restart_seconds" --warmup 0 --mix 70/25/5 \
            --partition-ids --acked "$work/restarted-acked.txt" --events "$work/restarted-events.txt" \
            --json "$work/restarted.json" --label restarted >"$work/restarted-load.txt" 2>&1 &
        load_pid=$!
        sleep 2
        local stopping stopped starting
        stopping=$(now_ms)
        scripts/postgres.sh stop "$postgres_dir" "$postgres_port"
        stopped=$(now_ms)
        sleep 3
        starting=$(now_ms)
        scripts/postgres.sh start "$postgres_dir" "$postgres_port" bookshelf >/dev/null
        started=$(now_ms)
        echo "stopping at +0 ms, down at +$((stopped - stopping)), starting at +$((starting - stopping)), accepting at +$((started - stopping))"
        wait "$load_pid"
        load_pid=""
        cat "$work/restarted-load.txt"
        while IFS= read -r line; do
            name=${line#* }; name=${name%%: *}; detail=${line#*: }
            check "$name" "$([ "${line%% *}" = PASS ] && echo true || echo false)" "$detail"
        done < <("$load" outage --events "$work/restarted-events.txt" --stopping "$stopping" --stopped "$stopped" \
            --starting "$starting" --started "$started")
        check "database restart: neither instance was restarted" \
            "$(kill -0 "$pid_a" 2>/dev/null && kill -0 "$pid_b" 2>/dev/null && echo true || echo false)" \
            "both processes ran throughout"
        verify_stored "database restart" restarted "$work/restarted-acked.txt"
        stop_pair
        check "database restart: both instances stop cleanly afterwards" \
            "$([ "$status_a" -eq 0 ] && [ "$status_b" -eq 0 ] && echo true || echo false)" "exits $status_a and $status_b"
    else
        check "database restart: both instances start" false "see above"
    fi

    # --- 5. SIGTERM under load ----------------------------------------------------------------------------------
    echo "== SIGTERM under a 64-connection load, over PostgreSQL"
    url=$(new_database sigterm)
    server_options=("${relaxed[@]}")
    start_server pg-sigterm library "$url"
    local started_sigterm=$?
    server_options=()
    if [ "$started_sigterm" -eq 0 ]; then
        "$load" run --port "$port" --connections 64 --duration 20 --warmup 0 --partition-ids --acked "$work/pg-sigterm-acked.txt" \
            --json "$work/pg-sigterm.json" --label sigterm >"$work/pg-sigterm-load.txt" 2>&1 &
        load_pid=$!
        sleep 3
        stop_server
        wait "$load_pid"
        load_pid=""
        cat "$work/pg-sigterm-load.txt"
        # The database service's last query, at its tear-down, counts the books: the client still runs then.
        sigterm_checks "SIGTERM (PostgreSQL)" pg-sigterm PostgresDatabaseService \
            "PostgresDatabaseService closed table books in .*: [0-9]* books$"
        verify_stored "SIGTERM (PostgreSQL)" sigterm "$work/pg-sigterm-acked.txt"
    else
        check "SIGTERM (PostgreSQL): the server starts" false "see above"
    fi

    scripts/postgres.sh stop "$postgres_dir" "$postgres_port"
    postgres_dir=""
}
