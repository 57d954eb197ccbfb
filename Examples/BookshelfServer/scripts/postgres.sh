#!/usr/bin/env bash
# A PostgreSQL server of its own for the bookshelf server, on 127.0.0.1 only.
#
#   scripts/postgres.sh start DIR PORT [DATABASE]   # prints postgres://postgres@127.0.0.1:PORT/DATABASE
#   scripts/postgres.sh stop DIR PORT
#   scripts/postgres.sh psql DIR PORT [DATABASE] [PSQL ARGUMENTS...]
#   scripts/postgres.sh install                      # only what start installs: Debian's package, if no initdb
#
# start: installs Debian's postgresql package only when no initdb is found (as root, with apt-get); creates a
# cluster in DIR with initdb when DIR holds none (its superuser is `postgres`; connections from 127.0.0.1 and DIR's
# Unix socket are trusted: a throwaway server that listens on loopback only); starts it on 127.0.0.1:PORT with
# fsync=on and synchronous_commit=on, so that a committed write, and so an acknowledged PUT, is on disk; and creates
# DATABASE (bookshelf by default) when missing. A DIR that holds a stopped cluster is started again as it is.
# stop: `pg_ctl stop -m fast` (rolls back what is in flight, closes the connections, checkpoints).
#
# PostgreSQL refuses to run as root: run as root, the script runs the server as the `postgres` user (which
# Debian's package creates), so DIR's parent directories must let that user through (mode o+x). Run as another
# user, it runs the server as that user.
set -euo pipefail

usage() {
    echo "usage: $0 start DIR PORT [DATABASE] | stop DIR PORT | psql DIR PORT [DATABASE] [ARGS...] | install" >&2
    exit 64
}
if [ "${1:-}" = install ] && [ $# -eq 1 ]; then
    command=install dir="" port=0
    shift
else
    [ $# -ge 3 ] || usage
    command=$1
    dir=$2
    port=$3
    shift 3
fi
case "$port" in '' | *[!0-9]*) usage ;; esac

# The newest installed PostgreSQL's programs (Debian keeps them out of PATH, in /usr/lib/postgresql/VERSION/bin).
find_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$found" ] && [ -x "$found/initdb" ]; then echo "$found"; return 0; fi
    found=$(command -v initdb 2>/dev/null || true)
    if [ -n "$found" ]; then dirname "$(readlink -f "$found")"; return 0; fi
    return 1
}

bin=$(find_bin || true)
if [ -z "$bin" ]; then
    if [ "$command" != start ] && [ "$command" != install ]; then echo "$0: PostgreSQL is not installed" >&2; exit 1; fi
    if [ "$(id -u)" -ne 0 ]; then
        echo "$0: no initdb found, and installing Debian's postgresql package needs root" >&2
        exit 1
    fi
    echo "installing Debian's postgresql package (no initdb found)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 ||
        { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; }
    bin=$(find_bin) || { echo "$0: initdb is still missing after installing postgresql" >&2; exit 1; }
fi

# Runs a command as the user the server runs as.
as_server_user() {
    if [ "$(id -u)" -eq 0 ]; then
        if command -v runuser >/dev/null; then runuser -u postgres -- "$@"; else su -s /bin/sh postgres -c "$(printf '%q ' "$@")"; fi
    else
        "$@"
    fi
}

psql_in() { # DATABASE ARGS...
    local database=$1
    shift
    as_server_user "$bin/psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d "$database" -v ON_ERROR_STOP=1 "$@"
}

case "$command" in
install)
    echo "$bin"
    ;;
start)
    database=${1:-bookshelf}
    case "$database" in '' | *[!a-z0-9_]*) echo "$0: DATABASE is a plain name (a-z, 0-9, _)" >&2; exit 64 ;; esac
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || { echo "$0: there is no postgres user to run the server as" >&2; exit 1; }
        chown postgres "$dir"
        if ! as_server_user test -w "$dir"; then
            echo "$0: the postgres user cannot reach $dir (a parent directory without o+x?)" >&2
            exit 1
        fi
    fi
    if [ ! -f "$dir/PG_VERSION" ]; then
        as_server_user "$bin/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir.initdb.log" 2>&1 ||
            as_server_user "$bin/initdb" -D "$dir" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$dir.initdb.log" 2>&1 || {
            cat "$dir.initdb.log" >&2
            exit 1
        }
        rm -f "$dir.initdb.log"
        # Written once, after initdb's own settings, so these win.
        as_server_user sh -c "cat >>'$dir/postgresql.conf'" <<EOF

# scripts/postgres.sh: loopback only; a committed transaction is on disk before the client hears of it.
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
fsync = on
synchronous_commit = on
full_page_writes = on
max_connections = 200
EOF
    fi
    if as_server_user "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
        echo "$0: a server already runs on $dir" >&2
    else
        as_server_user "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -w -t 60 -o "-p $port" start >/dev/null || {
            tail -n 20 "$dir/server.log" >&2
            exit 1
        }
    fi
    if [ -z "$(psql_in postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$database'")" ]; then
        psql_in postgres -c "CREATE DATABASE $database"
    fi
    echo "postgres://postgres@127.0.0.1:$port/$database"
    ;;
stop)
    if [ -f "$dir/postmaster.pid" ]; then
        as_server_user "$bin/pg_ctl" -D "$dir" -m fast -w -t 60 stop >/dev/null
    fi
    ;;
psql)
    database=${1:-bookshelf}
    [ $# -gt 0 ] && shift
    psql_in "$database" "$@"
    ;;
*) usage ;;
esac
