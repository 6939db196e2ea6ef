# Shared by the CLI tests (sourced): a scratch folder $tmp removed at exit, the
# pass/fail tally and three helpers.
#   run NAME WANT_EXIT CMD...   runs CMD, stdout in $tmp/out, stderr in $tmp/err;
#                               counts a failure when the exit status differs
#   has NAME FILE PATTERN       counts a failure when PATTERN (grep) is not in FILE
#   finish SCRIPT               prints the tally; exit status 0 only without failures
tmp=$(mktemp -d "${TMPDIR:-/tmp}/g16_cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
run() {
    local name=$1 wexit=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local code=$?
    if [ "$code" != "$wexit" ]; then
        bad "$name: exit $code, want $wexit ($(head -c 300 "$tmp/err"))"
        return 1
    fi
    ok
}
has() { if grep -q -- "$3" "$2"; then ok; else bad "$1: '$3' not in $(head -c 300 "$2")"; fi; }
finish() {
    echo "$1: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
