#!/usr/bin/env bash
# The test suite on a busy machine: `python -m pytest -n auto` RUNS times in a row (3 unless
# set) while two CPU-burning processes per core (PER_CORE) run beside it; stops at the first
# run that fails, with its exit status.  Arguments go to pytest: none runs the whole suite.
#
#   benchmarks/loaded_suite.sh                       # the full suite, 3 runs
#   benchmarks/loaded_suite.sh tests/match -x        # some files only
#   RUNS=5 PER_CORE=3 PYTHON=.venv/bin/python benchmarks/loaded_suite.sh
#
# The burners are `stress --cpu N` (Debian package stress) where it is installed, else shell
# loops; they are stopped however the script ends.  Each runs in its own session, as a bot
# does: a kernel with autogroup scheduling shares the CPU between sessions first, so burners
# in the script's session would cost the bots, each in a session of its own, next to nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
per_core=${PER_CORE:-2}
python=${PYTHON:-python}
cores=$(nproc)
burners=$((cores * per_core))

pids=()
stop_burners() {
  if [ ${#pids[@]} -gt 0 ]; then
    for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done  # each its group
    wait "${pids[@]}" 2>/dev/null || true
  fi
}
trap stop_burners EXIT
trap 'exit 130' INT TERM

if command -v stress >/dev/null; then
  setsid stress --cpu "$burners" >/dev/null 2>&1 &
  pids+=($!)
else
  for _ in $(seq "$burners"); do
    setsid sh -c 'while :; do :; done' &
    pids+=($!)
  done
fi

for run in $(seq "$runs"); do
  echo "== run $run of $runs: pytest -n auto $*, beside $burners CPU burners on $cores cores"
  started=$SECONDS
  status=0
  "$python" -m pytest -n auto "$@" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "== run $run of $runs failed (exit status $status)" >&2
    exit "$status"
  fi
  echo "== run $run of $runs passed in $((SECONDS - started)) s"
done
echo "== all $runs runs passed under load"
