#!/usr/bin/env bash
# How often an idle panel touches its database, over 60 s after a 30 s start:
#   - commits by the panel, as another connection sees them (SQLite's data_version);
#   - the panel's own database accesses (reads and writes), from its Prometheus metrics.
# Usage: Scripts/idle-wakes.sh BINARY DATABASE PORT [serve options…]   (the database is copied first; nothing
# else should write it, so that the panel is idle; METRICS on PORT+1).
set -euo pipefail
binary=$1; source=$2; port=$3; metrics=$((port + 1))
copy=$(mktemp -d)/idle.sqlite
cp "$source" "$copy"
"$binary" serve --db "$copy" --port "$port" --metrics-port "$metrics" "${@:4}" > "$copy.log" 2>&1 &
panel=$!
# One line per access type: data_version, read, low_priority_read, write, unsynced_write.
accesses() {
  curl -s "http://127.0.0.1:$metrics/metrics" | awk '/^panel_database_access_seconds_count/ { print $1, $2 }' | sort
}
sleep 30
before=$(accesses)
python3 - "$copy" <<'PY'
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1])
version = lambda: connection.execute("PRAGMA data_version").fetchone()[0]
last, moves, start = version(), 0, time.time()
while time.time() - start < 60:
    now = version()
    if now != last:
        moves, last = moves + 1, now
    time.sleep(0.01)
print(f"commits seen through data_version in 60 s: {moves}")
PY
after=$(accesses)
echo "the panel's database accesses in those 60 s, by type:"
join -a 2 <(echo "$before") <(echo "$after") | awk '
  { moved = (NF == 3 ? $3 - $2 : $2); total += moved; if (moved > 0) print "  " moved, $1 }
  END { print "  " total + 0, "in all" }'
kill -TERM "$panel"
wait "$panel" || true
rm -rf "$(dirname "$copy")"
