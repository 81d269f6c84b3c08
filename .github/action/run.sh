#!/usr/bin/env bash
# The step of the agent-readiness GitHub Action (action.yml): one `agent-readiness scan` with the action's inputs
# (INPUT_* variables), the Markdown report appended to the job summary, the chosen format in the log or in a file,
# and the CLI's exit code as the step's (0 the gate passed, 1 it failed, 2 a usage or target error).
set -uo pipefail

if [ -z "${INPUT_TARGET:-}" ]; then
  echo '::error::agent-readiness: the target input is required (a domain, a URL or http://localhost:PORT)' >&2
  exit 2
fi

# The CLI the job installed: on PATH (a global install), or the project's own (a devDependency after npm ci).
if command -v agent-readiness >/dev/null 2>&1; then
  cli=(agent-readiness)
elif [ -x node_modules/.bin/agent-readiness ]; then
  cli=(node_modules/.bin/agent-readiness)
else
  echo '::error::agent-readiness is not installed: add it to the devDependencies and run npm ci, or install it globally, before this step' >&2
  exit 2
fi

args=(scan "$INPUT_TARGET" --format "${INPUT_FORMAT:-text}")
[ -n "${INPUT_MIN_SCORE:-}" ] && args+=(--min-score "$INPUT_MIN_SCORE")
[ -n "${INPUT_CHECKS:-}" ] && args+=(--checks "$INPUT_CHECKS")
if [ -n "${INPUT_BASELINE:-}" ]; then
  # The first run of a pipeline has no baseline yet: it scans without one rather than failing as a usage error.
  if [ -f "$INPUT_BASELINE" ]; then
    args+=(--baseline "$INPUT_BASELINE")
    [ -n "${INPUT_TOLERANCE:-}" ] && args+=(--tolerance "$INPUT_TOLERANCE")
  else
    echo "::warning::agent-readiness: no baseline at $INPUT_BASELINE; this run is not compared with one"
  fi
fi
[ -n "${INPUT_SAVE_BASELINE:-}" ] && args+=(--save-baseline "$INPUT_SAVE_BASELINE")
[ -n "${GITHUB_STEP_SUMMARY:-}" ] && args+=(--summary "$GITHUB_STEP_SUMMARY")
if [ -n "${INPUT_ARGS:-}" ]; then
  # Further options, split on whitespace as a shell would split them (--static, --allow-private, --server URL).
  read -r -a extra <<<"$INPUT_ARGS"
  args+=("${extra[@]}")
fi

if [ -n "${INPUT_OUTPUT:-}" ]; then
  "${cli[@]}" "${args[@]}" >"$INPUT_OUTPUT"
else
  "${cli[@]}" "${args[@]}"
fi
