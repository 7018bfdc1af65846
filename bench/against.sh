#!/usr/bin/env bash
# The throughput benchmark against an earlier build, alternated in one run:
#   bench/against.sh REV [--rounds 3] [throughput arguments ...]
# Builds REV (a commit, tag or branch) from `git archive` under target/against/, then runs REV's
# ThroughputBenchmark and this tree's in turn, ROUNDS times, each with the same arguments, and
# prints both builds' steady rows side by side (ThroughputComparison). Each run's own output is kept
# in target/against/runs/. Called by `bench/run.sh throughput --against REV`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
  sed -n '2,3p' "$0"
  exit 2
fi
rev=$1
shift
rounds=3
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = --rounds ]; then
    [ $# -ge 2 ] || { echo "--rounds needs a number" >&2; exit 2; }
    rounds=$2
    shift 2
  else
    args+=("$1")
    shift
  fi
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds must be a positive whole number, got '$rounds'" >&2; exit 2; }
commit=$(git rev-parse --verify --quiet "$rev^{commit}") || { echo "no commit named '$rev'" >&2; exit 2; }
short=$(git rev-parse --short "$commit")
head_name="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src pom.xml templates || echo '+changes')"

build() { # dir
  (cd "$1" && { mvn -B -q -o test-compile || mvn -B -q test-compile; } \
    && { mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test \
         || mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test; })
}

base=target/against/$short
if [ ! -f "$base/target/cp.txt" ]; then
  rm -rf "$base"
  mkdir -p "$base"
  git archive "$commit" | tar -x -C "$base"
  build "$base"
fi
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ] || [ ! -f target/cp.txt ]; then
  build .
fi

runs=target/against/runs
mkdir -p "$runs"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
files=()
run() { # label dir out
  echo "== $1, round $r of $rounds" >&2
  (cd "$2" && java ${BENCH_JAVA_OPTS:-} -Dlogback.configurationFile=bench/logback.xml \
    -cp "target/test-classes:target/classes:$(cat target/cp.txt)" dev.mailrun.bench.ThroughputBenchmark "${args[@]}") > "$3"
  files+=("$1=$3")
}
for r in $(seq 1 "$rounds"); do
  run "$short" "$base" "$runs/$stamp-$short-$r.txt"
  run "$head_name" . "$runs/$stamp-head-$r.txt"
done
for f in "${files[@]}"; do
  echo
  echo "### ${f%%=*}: ${f#*=}"
  echo
  cat "${f#*=}"
done
echo
exec java -cp "target/test-classes:target/classes:$(cat target/cp.txt)" dev.mailrun.bench.ThroughputComparison "${files[@]}"
