#!/usr/bin/env bash
# Checks the Jenkins stand-in image test-fixtures/images/jenkins-standin.sh built, the way bin/images/check.sh checks
# the product images: unpacked with umoci and run in a chroot of its rootfs as its user, with only its environment:
#   - it runs as 1000:1000 (JenkinsPodSecurity) and its entrypoint is the jlinked java running JenkinsStandInMain;
#   - --version answers; sh and curl (the preStop hook's tools) run; jenkins-plugin-cli writes the listed plugins;
#   - the stand-in started with a JENKINS_HOME, a CasC folder and the controller's variables answers GET /login
#     with 200 and the X-Varroa-Stand-In header, also through sh + curl inside the image, and a script shaped like
#     the preStop hook (token file, printf into curl --config -, POST) reaches it;
#   - it kept its state in JENKINS_HOME as the jenkins user (the agent secret key, the applied configuration).
#
# usage: test-fixtures/images/jenkins-standin-check.sh [OCI-REF]   (default: the last build's layout in the cache)
set -euo pipefail
repo_root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=bin/images/common.sh
source "$repo_root/bin/images/common.sh"
for tool in umoci jq unshare chroot curl pgrep; do need "$tool"; done
[[ $(id -u) -eq 0 ]] || die "the check switches to the image's user 1000 in a chroot, which only root can do"

ref=${1:-$images_cache/images/jenkins-standin/oci:$(image_tag)}
main=dev.varroa.testfixtures.jenkins.standin.JenkinsStandInMain
login_deadline_seconds=90
scratch=$(mktemp -d "${TMPDIR:-/tmp}/varroa-standin-check-XXXXXX")
server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then
    # unshare ignores SIGTERM and its --kill-child does not survive chroot's change of user: stop its child, the
    # stand-in (PID 1 of its namespace, with a SIGTERM handler), and unshare follows it; SIGKILL after 10 s
    local child waited=0
    child=$(pgrep -P "$server_pid") || child=
    [[ -z $child ]] || kill -TERM $child 2>/dev/null || true
    while kill -0 "$server_pid" 2>/dev/null && (( waited < 20 )); do sleep 0.5; waited=$((waited + 1)); done
    if kill -0 "$server_pid" 2>/dev/null; then
      [[ -z $child ]] || kill -KILL $child 2>/dev/null || true
      kill -KILL "$server_pid" 2>/dev/null || true
    fi
    wait "$server_pid" 2>/dev/null || true
  fi
  # the chroot's /proc and /dev were mounted in a private namespace that ended with it; nothing is left mounted here
  rm -rf "$scratch"
}
trap cleanup EXIT
failures=0
fail() { echo "standin-check: FAIL $*" >&2; failures=$((failures + 1)); }
pass() { echo "standin-check: ok   $*" >&2; }

umoci unpack --image "$ref" "$scratch/bundle" > /dev/null || die "umoci unpack of $ref failed"
rootfs="$scratch/bundle/rootfs"
spec="$scratch/bundle/config.json"
uid=$(jq -r '.process.user.uid' "$spec"); gid=$(jq -r '.process.user.gid' "$spec")
[[ $uid == 1000 && $gid == 1000 ]] && pass "runs as 1000:1000" || fail "runs as $uid:$gid, not 1000:1000 (JenkinsPodSecurity)"
mapfile -t entrypoint < <(jq -r '.process.args[]' "$spec")
[[ ${entrypoint[0]} == /opt/java/openjdk/bin/java && ${entrypoint[-1]} == "$main" ]] \
  && pass "entrypoint ${entrypoint[*]}" || fail "entrypoint is '${entrypoint[*]}', expected the jlinked java running $main"
mapfile -t image_env < <(jq -r '.process.env[]' "$spec")

# Runs a command in the rootfs as 1000:1000 with the image's environment plus NAME=VALUE arguments given before --.
# The mount and PID namespaces end with the command (--kill-child: stopping unshare stops what it started).
# Call it only in a subshell: it execs.
run_in_image() {
  local -a extra=()
  while [[ $1 != -- ]]; do extra+=("$1"); shift; done
  shift
  mkdir -p "$rootfs/proc" "$rootfs/dev"
  # exec: every caller runs this in a subshell ($(...) or &), so the server's $! is unshare itself
  exec unshare --mount --pid --fork --kill-child bash -c \
    'root=$1; shift; mount --rbind /dev "$root/dev" && mount -t proc proc "$root/proc" && exec "$@"' \
    run-in-image "$rootfs" "$(command -v env)" -i "${image_env[@]}" "${extra[@]}" "$(command -v chroot)" \
    --userspec=1000:1000 "$rootfs" "$@" < /dev/null
}

printed=$(run_in_image -- "${entrypoint[@]}" --version 2>&1) && status=0 || status=$?
[[ $status -eq 0 && $printed == "varroa-jenkins-standin $(image_tag)" ]] && pass "--version: $printed" \
  || fail "--version exited $status and printed '$printed'"

printed=$(run_in_image -- sh -c 'command -v curl && curl --version' 2>&1) && status=0 || status=$?
[[ $status -eq 0 && $printed == *"curl 7"* ]] && pass "sh and curl run as 1000: $(grep -m1 '^curl' <<< "$printed")" \
  || fail "sh -c curl --version exited $status: $printed"

mkdir -p "$rootfs/tmp/check"
printf 'configuration-as-code:1810.v9b_c30a_249a_4c\nvarroa:0.1.0\n' > "$rootfs/tmp/check/plugins.txt"
chown -R 1000:1000 "$rootfs/tmp/check"
printed=$(run_in_image -- jenkins-plugin-cli --plugin-file /tmp/check/plugins.txt \
  --plugin-download-directory /tmp/check/plugins --latest false --clean-download-directory 2>&1) && status=0 || status=$?
if [[ $status -eq 0 && -f $rootfs/tmp/check/plugins/varroa.jpi && -f $rootfs/tmp/check/plugins/configuration-as-code.jpi ]]; then
  pass "jenkins-plugin-cli wrote configuration-as-code.jpi and varroa.jpi"
else
  fail "jenkins-plugin-cli exited $status: $printed"
fi

# A free port below the ephemeral range, as the test fixtures pick theirs.
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=
for candidate in $(shuf -i 20000-32767 -n 50); do
  port_taken "$candidate" || { port=$candidate; break; }
done
[[ -n $port ]] || die "no free port on 127.0.0.1 for the stand-in"
mkdir -p "$rootfs/tmp/check/casc"
printf 'jenkins:\n  systemMessage: "checked by jenkins-standin-check.sh"\n' > "$rootfs/tmp/check/casc/jenkins.yaml"
chown -R 1000:1000 "$rootfs/tmp/check/casc"
run_in_image JENKINS_HOME=/var/jenkins_home CASC_JENKINS_CONFIG=/tmp/check/casc \
  VARROA_CONTROLLER_NAMESPACE=check VARROA_CONTROLLER_NAME=standin VARROA_CONTROLLER_UID=00000000-0000-4000-8000-000000000000 \
  CONTROLLER_NAMESPACE=check CONTROLLER_NAME=standin VARROA_STANDIN_BIND_HOST=127.0.0.1 VARROA_STANDIN_HTTP_PORT="$port" \
  -- "${entrypoint[@]}" > "$scratch/standin.log" 2>&1 &
server_pid=$!

deadline=$((SECONDS + login_deadline_seconds))
code=
while (( SECONDS < deadline )); do
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/login") || code=
  [[ $code == 200 ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if [[ $code == 200 ]]; then
  pass "GET /login answered 200 after $((SECONDS - deadline + login_deadline_seconds)) s"
  header=$(curl -s -D - -o /dev/null "http://127.0.0.1:$port/login" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-varroa-stand-in" { print $2 }')
  [[ $header == jenkins-contract-fixture ]] && pass "X-Varroa-Stand-In: $header" || fail "no X-Varroa-Stand-In header on /login"
  printed=$(run_in_image -- sh -c "curl -sS -f -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/login" 2>&1) && status=0 || status=$?
  [[ $status -eq 0 && $printed == 200 ]] && pass "sh -c curl /login inside the image as 1000: 200" \
    || fail "sh -c curl /login inside the image exited $status: $printed"
  # the preStop hook's shape (JenkinsContainer#preStopCommand): the token from a file through printf into
  # curl --config -, a POST; here to the stand-in's build trigger instead of the mite's /drain
  printf 'check-token\n' > "$rootfs/tmp/check/loopback-token"
  chown 1000:1000 "$rootfs/tmp/check/loopback-token"
  printed=$(run_in_image -- sh -c "token_file=/tmp/check/loopback-token
if [ ! -s \"\$token_file\" ]; then echo 'no token'; exit 1; fi
printf 'header = \"Authorization: Bearer %s\"\\n' \"\$(cat \"\$token_file\")\" | curl --config - -sS -f -o /dev/null --max-time 10 -X POST 'http://127.0.0.1:$port/varroa-standin/builds?job=prestop-shape&lines=3'
status=\$?
[ \"\$status\" -eq 0 ] || { echo \"curl exit \$status\" >&2; exit 1; }" 2>&1) && status=0 || status=$?
  if [[ $status -eq 0 ]] && curl -s "http://127.0.0.1:$port/varroa-standin/api/json" | grep -q '"job":"prestop-shape"'; then
    pass "a preStop-shaped sh script (printf token | curl --config - -X POST) ran as 1000 and reached the stand-in"
  else
    fail "the preStop-shaped sh script exited $status: $printed"
  fi
  grep -q 'event=jenkins_standin_starting stand_in=true' "$scratch/standin.log" \
    && pass "its first log line says it is a stand-in" || fail "no 'event=jenkins_standin_starting stand_in=true' line"
  owner=$(stat -c %u:%g "$rootfs/var/jenkins_home/secrets/jenkins.slaves.JnlpSlaveAgentProtocol.secret" 2>/dev/null) || owner=none
  [[ $owner == 1000:1000 && -s $rootfs/var/jenkins_home/varroa-standin/applied-configurations.jsonl ]] \
    && pass "JENKINS_HOME written as 1000:1000 (agent secret key, applied configuration)" \
    || fail "JENKINS_HOME state missing or not owned by 1000:1000 (agent secret key owner: $owner)"
else
  fail "GET /login did not answer 200 within $login_deadline_seconds s (last: '${code:-no answer}'); its log: $(cat "$scratch/standin.log")"
fi

(( failures == 0 )) || die "jenkins-standin-check: $failures check(s) failed for $ref"
say "jenkins-standin-check: every check passed for $ref"
