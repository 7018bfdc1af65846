#!/usr/bin/env bash
# Builds once, then runs one benchmark: bench/run.sh NAME [--arg value ...]
# Names: throughput, latency, rate, scale, db-cost, build-cost, timebox-runs, timebox, allowance, events, api, tracking, audience. See docs/BENCHMARKS.md.
# BENCH_JAVA_OPTS adds JVM options (e.g. a flight recording); BENCH_SKIP_BUILD=1 reuses the last build.
# throughput --against REV [--rounds 3]: alternates an earlier build's runs with this tree's (bench/against.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  sed -n '2,5p' "$0"
  exit 2
fi
name=$1
shift
if [ "$name" = throughput ] && [ "${1:-}" = --against ]; then
  [ $# -ge 2 ] || { echo "--against needs a commit" >&2; exit 2; }
  rev=$2
  shift 2
  exec bench/against.sh "$rev" "$@"
fi
case "$name" in
  throughput)   class=ThroughputBenchmark ;;
  latency)      class=LatencyBenchmark ;;
  rate)         class=RateBenchmark ;;
  scale)        class=ScaleBenchmark ;;
  db-cost)      class=DatabaseCostBenchmark ;;
  build-cost)   class=BuildCostBenchmark ;;
  timebox-runs) class=TimeboxRunsBenchmark ;;
  timebox)      class=TimeboxBenchmark ;;
  allowance)    class=AllowanceBenchmark ;;
  events)       class=EventsBenchmark ;;
  api)          class=ApiBenchmark ;;
  tracking)     class=TrackingBenchmark ;;
  audience)     class=AudienceBenchmark ;;
  *) echo "unknown benchmark '$name' (throughput, latency, rate, scale, db-cost, build-cost, timebox-runs, timebox, allowance, events, api, tracking, audience)" >&2; exit 2 ;;
esac

if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -f target/cp.txt ]; then
  # Offline first (fast, no network); online when the local repository lacks something.
  mvn -B -q -o test-compile || mvn -B -q test-compile
  cp_args=(dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test)
  mvn -B -q -o "${cp_args[@]}" || mvn -B -q "${cp_args[@]}"
fi

exec java ${BENCH_JAVA_OPTS:-} -Dlogback.configurationFile=bench/logback.xml \
  -cp "target/test-classes:target/classes:$(cat target/cp.txt)" "dev.mailrun.bench.$class" "$@"
