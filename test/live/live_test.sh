#!/usr/bin/env bash
# The live endpoint against real clients, with examples/live_service:
#   live_test.sh prometheus SERVICE   Prometheus scrapes it: the calls counter equals the
#                                     service's own count, histogram_quantile gives a
#                                     p99 near the service's own
#   live_test.sh pprof SERVICE        go tool pprof -top reads /debug/pprof/profile?seconds=2
#                                     and names the hottest function
#   live_test.sh promtool SERVICE     promtool check metrics accepts the Prometheus page
#                                     (it reads no OpenMetrics: Prometheus itself scrapes
#                                     that one in the prometheus test)
# Every port is picked free, every file is in a temporary directory: tests run in parallel.
set -euo pipefail
mode=$1 service=$2
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local seconds=$1
  shift
  for ((i = 0; i < seconds * 10; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  fail "timed out after ${seconds}s waiting for: $*"
}

# The service on a port of its choosing, which it names on stderr.
start_service() {
  PERF_LISTEN=127.0.0.1:0 PERF_REPORT=off "$service" "$@" >"$work/service.out" 2>"$work/service.err" &
  service_pid=$!
  pids+=("$service_pid")
  wait_for 10 grep -q "live endpoint at" "$work/service.err"
  endpoint=$(sed -n 's|.*live endpoint at http://\([0-9.:]*\)/.*|\1|p' "$work/service.err")
}

# Stops the service with SIGTERM; it must exit 0 saying so.
stop_service() {
  kill -TERM "$service_pid"
  wait "$service_pid" || fail "the service exited with $?"
  grep -q "stopped by signal 15" "$work/service.out" || fail "service output: $(cat "$work/service.out")"
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A PromQL query's single value.
query() {
  curl -sfG "http://$prometheus/api/v1/query" --data-urlencode "query=$1" |
    python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "none")'
}

case $mode in
prometheus)
  requests=20000
  start_service $requests
  wait_for 20 grep -q "handled $requests requests" "$work/service.out"
  own=$(curl -sf "http://$endpoint/report.json" | python3 -c '
import json, sys
f = [f for f in json.load(sys.stdin)["functions"] if f["name"] == "service::handle_request"][0]
print(f["calls"], f["p99_ns"] / 1e9)')
  read -r own_calls own_p99 <<<"$own"
  [[ $own_calls == "$requests" ]] || fail "the service counts $own_calls calls, not $requests"

  prometheus=127.0.0.1:$(free_port)
  cat >"$work/prometheus.yml" <<YAML
global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: live
    static_configs: [{targets: ["$endpoint"]}]
YAML
  prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
    --web.listen-address="$prometheus" >"$work/prometheus.log" 2>&1 &
  pids+=($!)
  wait_for 20 curl -sf "http://$prometheus/-/ready"
  scrapes_done() { [[ $(query 'count_over_time(up{job="live"}[1m])') =~ ^[2-9]|^[1-9][0-9] ]] && [[ $(query 'up{job="live"}') == 1 ]]; }
  wait_for 20 scrapes_done

  calls=$(query 'perf_function_calls_total{function="service::handle_request"}')
  [[ $calls == "$requests" ]] || fail "Prometheus has $calls calls of service::handle_request, the service $requests"
  p99=$(query 'histogram_quantile(0.99, sum by (le, function) (perf_function_duration_seconds_bucket{function="service::handle_request"}))')
  python3 -c "import sys; q, own = float('$p99'), float('$own_p99'); sys.exit(0 if 0 < q and own / 3 <= q <= own * 3 else 1)" ||
    fail "histogram_quantile's p99 $p99 s is not within a factor of 3 of the service's own $own_p99 s"
  echo "calls $calls, p99 $p99 s (the service's own: $own_p99 s)"
  stop_service
  ;;
pprof)
  start_service 0
  export PPROF_TMPDIR=$work HOME=$work
  go tool pprof -top "http://$endpoint/debug/pprof/profile?seconds=2" >"$work/top.txt" 2>"$work/pprof.err" ||
    fail "go tool pprof failed: $(cat "$work/pprof.err")"
  # The first row after the column headings is the function with the most flat samples.
  hottest=$(awk '/flat%/ {getline; print; exit}' "$work/top.txt")
  [[ $hottest == *"service::checksum"* ]] || fail "the hottest function is not service::checksum:
$(cat "$work/top.txt")"
  echo "$hottest"
  stop_service
  ;;
promtool)
  start_service 2000
  wait_for 20 grep -q "handled 2000 requests" "$work/service.out"
  curl -sf "http://$endpoint/metrics" >"$work/metrics.txt" || fail "no /metrics"
  grep -q '^perf_function_calls_total{function="service::handle_request",.*} 2000$' "$work/metrics.txt" ||
    fail "no calls counter of 2000 for service::handle_request: $(grep calls_total "$work/metrics.txt")"
  promtool check metrics <"$work/metrics.txt" >"$work/promtool.out" 2>&1 ||
    fail "promtool check metrics: $(cat "$work/promtool.out")"
  [[ ! -s $work/promtool.out ]] || fail "promtool check metrics found problems: $(cat "$work/promtool.out")"
  echo "promtool accepts $(wc -l <"$work/metrics.txt") lines"
  stop_service
  ;;
*) fail "unknown mode $mode" ;;
esac
