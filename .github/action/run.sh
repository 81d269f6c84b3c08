#!/usr/bin/env bash
# The step of the agent-readiness GitHub Action (action.yml): one `agent-readiness scan` with the action's inputs
# (INPUT_* variables), the Markdown report appended to the job summary, the chosen format in the log or in a file,
# and the CLI's exit code as the step's (0 the gate passed, 1 it failed, 2 a usage or target error).
set -uo pipefail

if [ -z "${INPUT_TARGET:-}" ]; then
  echo '::error::agent-readiness: the target input is required (a domain, a URL or http://localhost:PORT)' >&2
  exit 2
fi

# The CLI: the one the job installed (on PATH after a global install, or the project's own devDependency after
# npm ci); otherwise the action's own checkout, which `uses: <owner>/<repo>@<ref>` puts at $GITHUB_ACTION_PATH,
# installed there on first use (its dependencies bring Bun; installing builds dist/cli.js, which runs under Node).
if command -v agent-readiness >/dev/null 2>&1; then
  cli=(agent-readiness)
elif [ -x node_modules/.bin/agent-readiness ]; then
  cli=(node_modules/.bin/agent-readiness)
elif [ -n "${GITHUB_ACTION_PATH:-}" ] && [ -f "$GITHUB_ACTION_PATH/package.json" ]; then
  if [ ! -x "$GITHUB_ACTION_PATH/dist/cli.js" ]; then
    echo "::group::agent-readiness: installing the action's CLI (npm ci in $GITHUB_ACTION_PATH)"
    if ! (cd "$GITHUB_ACTION_PATH" && npm ci --omit=dev --no-audit --no-fund) >&2; then
      echo '::endgroup::'
      echo "::error::agent-readiness: installing the CLI in $GITHUB_ACTION_PATH failed (npm ci; see the log above)" >&2
      exit 2
    fi
    echo '::endgroup::'
  fi
  cli=("$GITHUB_ACTION_PATH/dist/cli.js")
else
  echo '::error::agent-readiness is not installed: use the action as <owner>/<repo>@<ref>, add the package to the devDependencies and run npm ci, or install it globally, before this step' >&2
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

# The step's outputs read this run's JSON report: the baseline it saves, or a report in the runner's temp
# directory. A partial run (--only) saves none and has no score.
report="${INPUT_SAVE_BASELINE:-}"
if [ -z "$report" ] && [ -n "${GITHUB_OUTPUT:-}" ] && ! [[ " ${INPUT_ARGS:-} " =~ [[:space:]]--only[=[:space:]] ]]; then
  report="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/agent-readiness-report.json"
  args+=(--save-baseline "$report")
fi

if [ -n "${INPUT_OUTPUT:-}" ]; then
  "${cli[@]}" "${args[@]}" >"$INPUT_OUTPUT"
else
  "${cli[@]}" "${args[@]}"
fi
code=$?

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$code"
    if [ "$code" -eq 0 ]; then echo 'passed=true'; else echo 'passed=false'; fi
    if [ -n "$report" ] && [ -f "$report" ]; then
      echo "report=$report"
      node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(`score=${r.score ?? ""}\ngrade=${r.grade ?? ""}`)' "$report"
    fi
  } >>"$GITHUB_OUTPUT"
fi
exit "$code"
