#!/usr/bin/env bash
# The cluster queue's claim throughput (issue 24's bar: >= 500 partitions/s against one
# PostgreSQL on this machine), without proving: a throwaway PostgreSQL in a temp dir, the schema
# made by g16d's own migrations (one g16d --cluster started and stopped), N queued partitions,
# then pgbench clients each claiming one partition under a lease and storing its result under the
# epoch fence, with the same statements as src/service/cluster_run.c (claim() and store_result();
# keep them equal).
# usage: bench/daemon/claims.sh BUILD_DIR [PARTITIONS] [CLIENTS] [SECONDS]
set -euo pipefail
build=$(cd "$1" && pwd)
parts=${2:-200000}
clients=${3:-8}
secs=${4:-10}
pgbin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | tail -n 1)")
tmp=$(mktemp -d /tmp/g16_claims.XXXXXX)
chmod 755 "$tmp"
run_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
mkdir "$tmp/pg"
[ "$(id -u)" = 0 ] && chown postgres "$tmp/pg"
port=$((20000 + RANDOM % 20000))
cleanup() {
    run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -m immediate stop >/dev/null 2>&1 || true
    [ -n "${g16d_pid:-}" ] && kill "$g16d_pid" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
run_pg "$pgbin/initdb" -D "$tmp/pg" -A trust -U g16 >/dev/null
run_pg "$pgbin/pg_ctl" -D "$tmp/pg" -o "-p $port -k $tmp/pg -c listen_addresses=127.0.0.1 -c max_connections=200" \
    -l "$tmp/pg/log" -w start >/dev/null
url="postgresql://g16@127.0.0.1:$port/postgres"
echo "claims-bench-token-0123456789" > "$tmp/token"
"$build/g16d" --listen 127.0.0.1:0 --data-dir "$tmp/data" --token-file "$tmp/token" --cluster "$url" \
    --node-name schema >/dev/null 2>&1 &
g16d_pid=$!
for _ in $(seq 100); do [ -f "$tmp/data/g16d.addr" ] && break; sleep 0.1; done
kill "$g16d_pid"; wait "$g16d_pid" || true; g16d_pid=
psql=("$pgbin/psql" "$url" -q -At -v ON_ERROR_STOP=1)
"${psql[@]}" -c "INSERT INTO g16_jobs (id, key, priority, state, n_parts, created)
                 SELECT 'job' || g, 'k', g % 4, 0, 100, 0 FROM generate_series(0, $parts / 100 - 1) g;
                 INSERT INTO g16_parts (job, idx, circuit, witness, priority, seq)
                 SELECT j.id, i, '/c', '/w', j.priority, j.seq FROM g16_jobs j, generate_series(0, 99) i"
"${psql[@]}" -c "VACUUM ANALYZE"
cat > "$tmp/claim.sql" <<'SQL'
\set node random(1, 1000)
WITH s AS (SELECT set_config('synchronous_commit', 'off', true)),
 c AS (SELECT job, idx FROM g16_parts WHERE state = 0 AND priority <= 3
  ORDER BY priority, seq, idx LIMIT 1 FOR UPDATE SKIP LOCKED),
 u AS (UPDATE g16_parts p SET state = 1, owner = 'n' || :node, epoch = p.epoch + 1,
  lease_until = clock_timestamp() + make_interval(secs => 10), attempts = p.attempts + 1
  FROM c WHERE p.job = c.job AND p.idx = c.idx
  RETURNING p.job, p.idx, p.circuit, p.witness, p.epoch, p.priority),
 j AS (UPDATE g16_jobs SET state = 1, started = 1 WHERE id IN (SELECT job FROM u) AND state = 0 RETURNING id)
SELECT u.job, u.idx, u.epoch, (SELECT count(*) FROM j), (SELECT count(*) FROM s) FROM u JOIN g16_jobs g ON g.id = u.job \gset
UPDATE g16_parts SET state = 2, proof = '\x00', inputs = NULL, n_inputs = 0, seconds = 0, owner = NULL,
  lease_until = NULL, proved_by = 'n' WHERE job = :job AND idx = :idx AND epoch = :epoch AND state = 1
  AND owner = 'n' || :node;
SQL
echo "queue: $parts partitions; $clients clients, $secs s, each transaction = one claim + one fenced result"
run_pg "$pgbin/pgbench" -n -h 127.0.0.1 -p "$port" -U g16 -M extended -c "$clients" -j 2 -T "$secs" -f "$tmp/claim.sql" postgres |
    grep -E "number of transactions actually processed|latency average|tps"
"${psql[@]}" -c "SELECT 'stored: ' || count(*) FILTER (WHERE state = 2) || ', still leased: ' ||
                 count(*) FILTER (WHERE state = 1) FROM g16_parts"
