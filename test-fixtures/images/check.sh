#!/usr/bin/env bash
# Checks the test images build.sh left in $VARROA_CACHE/images/test-images/<name>/, without a node: each is unpacked
# with umoci and its entrypoint run in a chroot of the rootfs as 65532:65532, the rootfs mounted read-only, the
# writable paths bind-mounted folders (as a pod's volumes), in private mount, PID and network namespaces (so the
# images' own ports, 4222, 5432, 9998, 8080, collide with nothing on the machine). Then, from inside that network:
#   nats     the chart's nats.conf (helm template) passes `nats-server -t`, the server starts with the chart's command,
#            env and mounts, the chart's own probe commands (wget in the image) succeed, port 4222 offers TLS,
#            authentication and JetStream;
#   postgres the first start initialises PGDATA and the role, database and init script from the environment; psql
#            logs in with the passwords (and not with a wrong one); a second start keeps the data and the password;
#            a failing init script stops the first start;
#   oidc     discovery names the ISSUER given, the JWKS answers, the login page of the users file is served;
#   s3       a signed PUT and GET of an object (curl --aws-sigv4) with the environment's credentials, a wrong
#            secret refused, the object on the volume.
# Exits non-zero when one fails; prints `figure: test_image_size_<name>_unpacked N MiB` last.
# Needs root (chroot as 65532, mounts); TEST_IMAGES="a b" checks only those; HELM names a helm (default: the cached one).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bin/images/common.sh
source "$here/../../bin/images/common.sh"

for tool in umoci jq yq unshare nsenter chroot ip pgrep curl openssl psql pg_isready timeout; do need "$tool"; done
[[ $(id -u) -eq 0 ]] || die "test-fixtures/images/check.sh needs root: it chroots as 65532 and mounts the volumes"
# HELM, else the one test-fixtures/helm/install.sh builds into the cache (it builds it when missing)
helm=${HELM:-${VARROA_CACHE:-$HOME/.cache/varroa}/helm/bin/helm}
[[ -x $helm ]] || "$here/../helm/install.sh" >&2 || die "helm is missing and test-fixtures/helm/install.sh failed: set HELM to a helm 3"
test_cache="$images_cache/test-images"
start_deadline_seconds=60

scratch=$(mktemp -d "${TMPDIR:-/tmp}/varroa-test-images-check-XXXXXX")
started=()
cleanup() {
  local pid
  for pid in "${started[@]}"; do ! kill -0 "$pid" 2> /dev/null || stop_image "$pid"; done
  rm -rf "$scratch"
}
trap cleanup EXIT
failures=()
fail() { echo "test-images-check: FAIL $1: $2" >&2; failures+=("$1"); }
pass() { echo "test-images-check: ok   $1: $2" >&2; }

# --- running an image -------------------------------------------------------------------------------------------

# Starts the image's entrypoint (or the command given) in the background; sets started_pid, the process whose
# namespaces the image runs in. volumes: "host-folder:/path" pairs; environment: the image's env plus these.
volumes=()
extra_env=()
start_in_image() {
  local name=$1 bundle=$2 log=$3 volume
  shift 3
  local -a environment command
  mapfile -t environment < <(jq -r '.process.env[]' "$bundle/config.json")
  environment+=("${extra_env[@]}")
  if (( $# )); then command=("$@"); else mapfile -t command < <(jq -r '.process.args[]' "$bundle/config.json"); fi
  mkdir -p "$bundle/rootfs/proc" "$bundle/rootfs/dev"
  for volume in "${volumes[@]}"; do mkdir -p "$bundle/rootfs${volume#*:}"; done
  unshare --net --mount --pid --fork bash -c '
    set -e
    root=$1 volumes=$2
    shift 2
    ip link set lo up
    mount --make-rprivate /
    mount --bind "$root" "$root"
    mount -o remount,bind,ro "$root"
    for volume in $volumes; do mount --bind "${volume%%:*}" "$root${volume#*:}"; done
    mount --rbind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    exec "$@"' start-in-image "$bundle/rootfs" "${volumes[*]}" \
    "$(command -v env)" -i "${environment[@]}" "$(command -v chroot)" --userspec=65532:65532 "$bundle/rootfs" \
    "${command[@]}" > "$log" 2>&1 < /dev/null &
  started_pid=$!
  started+=("$started_pid")
}

# Stops the image: TERM to its first process (PID 1 of its namespace, which takes the others with it when it ends),
# KILL after the deadline. unshare ignores TERM, and chroot's user switch clears --kill-child's death signal.
stop_image() {
  local pid=$1 child deadline=$((SECONDS + start_deadline_seconds))
  child=$(pgrep -P "$pid" || true)
  [[ -z $child ]] || kill -TERM $child 2> /dev/null || true
  while kill -0 "$pid" 2> /dev/null && (( SECONDS < deadline )); do sleep 0.2; done
  [[ -z $child ]] || kill -KILL $child 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
}

# Runs a command of the image (a probe) in the running image's mount and network namespaces, as 65532.
exec_in_image() {
  local pid=$1 bundle=$2
  shift 2
  local -a environment
  mapfile -t environment < <(jq -r '.process.env[]' "$bundle/config.json")
  nsenter --target "$pid" --mount --net -- "$(command -v env)" -i "${environment[@]}" \
    "$(command -v chroot)" --userspec=65532:65532 "$bundle/rootfs" "$@" < /dev/null
}

# Runs a command of this machine (curl, psql) in the running image's network namespace.
in_image_network() {
  local pid=$1
  shift
  nsenter --target "$pid" --net -- "$@" < /dev/null
}

# Waits until a command succeeds, up to the deadline; false when the image's process ended or time ran out.
wait_until() {
  local pid=$1 deadline=$((SECONDS + start_deadline_seconds))
  shift
  until "$@" > /dev/null 2>&1; do
    kill -0 "$pid" 2> /dev/null || return 1
    (( SECONDS < deadline )) || return 1
    sleep 0.2
  done
}

# True when the process ends before the deadline.
ended_within() {
  local deadline=$((SECONDS + start_deadline_seconds))
  while kill -0 "$1" 2> /dev/null; do
    (( SECONDS < deadline )) || return 1
    sleep 0.2
  done
}

# Unpacks an image into $scratch/<name>, sets bundle to that folder; false (and a failure) when it cannot.
unpack() {
  local name=$1 tag=$2 user
  bundle="$scratch/$name"
  [[ -f $test_cache/$name/digest ]] || { fail "$name" "not built: run test-fixtures/images/build.sh first"; return 1; }
  umoci unpack --image "$test_cache/$name/oci:$tag" "$bundle" > /dev/null || { fail "$name" "umoci unpack failed"; return 1; }
  user=$(jq -r '"\(.process.user.uid):\(.process.user.gid)"' "$bundle/config.json")
  [[ $user == 65532:65532 ]] && pass "$name" "runs as 65532:65532" || fail "$name" "runs as $user, not 65532:65532"
}

# A folder as kubelet makes an emptyDir: world-writable, owned by root.
empty_dir() { mkdir -p "$1" && chmod 0777 "$1" && echo "$1"; }

# --- the images -----------------------------------------------------------------------------------------------

check_nats() {
  local tag=$1 rendered pid name info container version
  local -a command startup readiness liveness
  unpack nats "$tag" || return 0
  rendered="$scratch/nats-chart.yaml"
  "$helm" template varroa "$repo_root/chart" --namespace varroa-system \
    --set networkPolicy.enabled=false --set recordStore.enabled=true --set recordStore.postgres.mode=external \
    --set recordStore.postgres.external.existingSecret=varroa-test-recordstore \
    --set dashboard.recordStore.existingSecret=varroa-test-recordstore-reader \
    --set nats.image.repository=REGISTRY/varroa-test/nats --set "nats.image.tag=$tag" \
    --show-only templates/nats.yaml > "$rendered" || { fail nats "helm template of the chart's NATS failed"; return 0; }
  container='select(.kind == "StatefulSet") | .spec.template.spec.containers[0]'
  mkdir -p "$scratch/nats-config" "$scratch/nats-tls"
  yq -r 'select(.kind == "ConfigMap") | .data["nats.conf"]' "$rendered" > "$scratch/nats-config/nats.conf"
  mapfile -t command < <(yq -r "$container | .command[]" "$rendered")
  mapfile -t startup < <(yq -r "$container | .startupProbe.exec.command[]" "$rendered")
  mapfile -t readiness < <(yq -r "$container | .readinessProbe.exec.command[]" "$rendered")
  mapfile -t liveness < <(yq -r "$container | .livenessProbe.exec.command[]" "$rendered")
  # the Secret varroa-nats-tls as the operator makes it: a CA, and the server's certificate and key
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=varroa-test-ca \
    -keyout "$scratch/nats-ca.key" -out "$scratch/nats-tls/ca.crt" 2> /dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=varroa-nats \
    -keyout "$scratch/nats-tls/tls.key" -out "$scratch/nats.csr" 2> /dev/null
  openssl x509 -req -in "$scratch/nats.csr" -CA "$scratch/nats-tls/ca.crt" -CAkey "$scratch/nats-ca.key" \
    -CAcreateserial -days 1 -extfile <(echo 'subjectAltName=DNS:localhost,IP:127.0.0.1') \
    -out "$scratch/nats-tls/tls.crt" 2> /dev/null
  chmod 0444 "$scratch/nats-tls/"*
  volumes=("$scratch/nats-config:/etc/nats/config" "$scratch/nats-tls:/etc/nats/tls"
    "$(empty_dir "$scratch/nats-data"):/data" "$(empty_dir "$scratch/nats-tmp"):/tmp")
  extra_env=()
  while read -r name; do
    if [[ $name == SERVER_NAME ]]; then extra_env+=(SERVER_NAME=varroa-nats-0); else extra_env+=("$name=test-$RANDOM$RANDOM"); fi
  done < <(yq -r "$container | .env[].name" "$rendered")

  start_in_image nats "$bundle" "$scratch/nats-version.log" nats-server --version
  wait "$started_pid" && version=$(cat "$scratch/nats-version.log") || version="nats-server --version failed"
  start_in_image nats "$bundle" "$scratch/nats-test.log" "${command[@]}" -t
  if wait "$started_pid"; then
    pass nats "the chart's nats.conf passes '${command[*]} -t' ($version)"
  else
    fail nats "'${command[*]} -t' refuses the chart's nats.conf: $(tail -n 5 "$scratch/nats-test.log")"
  fi
  start_in_image nats "$bundle" "$scratch/nats.log" "${command[@]}"
  pid=$started_pid
  if wait_until "$pid" exec_in_image "$pid" "$bundle" "${startup[@]}"; then
    pass nats "started with the chart's command; its startup probe '${startup[*]}' succeeds"
    for probe in readiness liveness; do
      local -n probe_command=$probe
      exec_in_image "$pid" "$bundle" "${probe_command[@]}" \
        && pass nats "the chart's $probe probe '${probe_command[*]}' succeeds" \
        || fail nats "the chart's $probe probe '${probe_command[*]}' fails"
    done
    exec_in_image "$pid" "$bundle" wget -q -O /dev/null http://127.0.0.1:8222/no-such-page \
      && fail nats "wget succeeds on an HTTP 404: the probes would not see a failure" \
      || pass nats "wget fails on an HTTP 404, as the probes need"
    info=$(in_image_network "$pid" timeout 5 bash -c 'exec 3<> /dev/tcp/127.0.0.1/4222 && read -r line <&3 && echo "$line"') || info=
    if [[ $(jq -c '{tls_required, auth_required, jetstream}' <<< "${info#INFO }" 2> /dev/null) == '{"tls_required":true,"auth_required":true,"jetstream":true}' ]]; then
      pass nats "port 4222 offers TLS, authentication and JetStream"
    else
      fail nats "port 4222 says '$info', not TLS, authentication and JetStream"
    fi
  else
    fail nats "the startup probe '${startup[*]}' did not succeed within ${start_deadline_seconds}s: $(tail -n 5 "$scratch/nats.log")"
  fi
  stop_image "$pid"
}

check_postgres() {
  local tag=$1 pid data run init
  unpack postgres "$tag" || return 0
  data=$(empty_dir "$scratch/postgres-data")
  run=$(empty_dir "$scratch/postgres-run")
  init="$scratch/postgres-init"
  mkdir -p "$init"
  echo "CREATE ROLE varroa_dashboard LOGIN PASSWORD 'reader-secret';" > "$init/10-dashboard-role.sql"
  chmod -R a+rX "$init"
  volumes=("$data:/var/lib/postgresql/data" "$run:/var/run/postgresql" "$init:/docker-entrypoint-initdb.d")
  extra_env=(POSTGRES_USER=varroa_recorder POSTGRES_PASSWORD=recorder-secret POSTGRES_DB=varroa
    PGDATA=/var/lib/postgresql/data/pgdata)
  login() {  # pid user password: prints "user|database"
    in_image_network "$1" env "PGPASSWORD=$3" PGCONNECT_TIMEOUT=5 \
      psql -X -A -t -h 127.0.0.1 -p 5432 -U "$2" -d varroa -c 'SELECT current_user || $$|$$ || current_database()'
  }
  start_in_image postgres "$bundle" "$scratch/postgres.log"
  pid=$started_pid
  if wait_until "$pid" in_image_network "$pid" pg_isready -q -h 127.0.0.1 -p 5432; then
    pass postgres "initialised PGDATA and accepts connections on 5432"
    [[ $(login "$pid" varroa_recorder recorder-secret 2>&1) == "varroa_recorder|varroa" ]] \
      && pass postgres "psql logs in as POSTGRES_USER with POSTGRES_PASSWORD to POSTGRES_DB" \
      || fail postgres "psql as varroa_recorder: $(login "$pid" varroa_recorder recorder-secret 2>&1)"
    [[ $(login "$pid" varroa_dashboard reader-secret 2>&1) == "varroa_dashboard|varroa" ]] \
      && pass postgres "the init script's role logs in (the dashboard's read-only role)" \
      || fail postgres "psql as varroa_dashboard: $(login "$pid" varroa_dashboard reader-secret 2>&1)"
    login "$pid" varroa_recorder wrong-secret > /dev/null 2>&1 \
      && fail postgres "a wrong password logs in: the image does not ask for passwords" \
      || pass postgres "a wrong password is refused"
    in_image_network "$pid" env PGPASSWORD=recorder-secret psql -X -q -h 127.0.0.1 -U varroa_recorder -d varroa \
      -c 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$before the restart$$)' > /dev/null 2>&1 || true
  else
    fail postgres "no connection on 5432 within ${start_deadline_seconds}s: $(tail -n 5 "$scratch/postgres.log")"
  fi
  stop_image "$pid"
  # a second start on the same volume: no new initdb, the first password still holds, the data is there
  extra_env=(POSTGRES_USER=varroa_recorder POSTGRES_PASSWORD=another-secret POSTGRES_DB=varroa
    PGDATA=/var/lib/postgresql/data/pgdata)
  start_in_image postgres "$bundle" "$scratch/postgres-again.log"
  pid=$started_pid
  if wait_until "$pid" in_image_network "$pid" pg_isready -q -h 127.0.0.1 -p 5432 \
     && [[ $(in_image_network "$pid" env PGPASSWORD=recorder-secret psql -X -A -t -h 127.0.0.1 -U varroa_recorder \
               -d varroa -c 'SELECT v FROM kept' 2>&1) == "before the restart" ]]; then
    pass postgres "a second start on the same volume keeps the data and the first password"
  else
    fail postgres "after a restart on the same volume the data or the password is gone: $(tail -n 5 "$scratch/postgres-again.log")"
  fi
  stop_image "$pid"
  # a failing init script stops the first start, with the error in the log
  mkdir -p "$scratch/postgres-init-bad"
  echo "CREATE ROLE varroa_dashboard LOGIN PASSWORD 'x' NO_SUCH_OPTION;" > "$scratch/postgres-init-bad/10-broken.sql"
  chmod -R a+rX "$scratch/postgres-init-bad"
  volumes=("$(empty_dir "$scratch/postgres-data-bad"):/var/lib/postgresql/data" "$run:/var/run/postgresql"
    "$scratch/postgres-init-bad:/docker-entrypoint-initdb.d")
  start_in_image postgres "$bundle" "$scratch/postgres-bad.log"
  pid=$started_pid
  if ended_within "$pid" && ! wait "$pid" && grep -q '10-broken.sql failed' "$scratch/postgres-bad.log"; then
    pass postgres "a failing init script stops the first start and the log names it"
  else
    fail postgres "a failing init script did not stop the start: $(tail -n 3 "$scratch/postgres-bad.log")"
  fi
  stop_image "$pid"
}

check_oidc() {
  local tag=$1 pid issuer discovery
  unpack oidc "$tag" || return 0
  issuer=http://varroa-test-oidc.varroa-test.svc:9998/
  mkdir -p "$scratch/oidc-users"
  echo '{"u1":{"ID":"u1","Username":"alice","Password":"alice-secret","FirstName":"alice","LastName":"","Email":"alice@example.com","EmailVerified":true,"Phone":"","PhoneVerified":false,"PreferredLanguage":"en","IsAdmin":false}}' \
    > "$scratch/oidc-users/users.json"
  chmod -R a+rX "$scratch/oidc-users"
  volumes=("$scratch/oidc-users:/etc/oidc")
  extra_env=("ISSUER=$issuer" USERS_FILE=/etc/oidc/users.json REDIRECT_URI=http://localhost:8080/auth/callback)
  start_in_image oidc "$bundle" "$scratch/oidc.log"
  pid=$started_pid
  if wait_until "$pid" in_image_network "$pid" curl -fsS -o /dev/null http://127.0.0.1:9998/.well-known/openid-configuration; then
    discovery=$(in_image_network "$pid" curl -fsS http://127.0.0.1:9998/.well-known/openid-configuration)
    [[ $(jq -r .issuer <<< "$discovery") == "$issuer" ]] \
      && pass oidc "discovery answers on 9998 with the issuer ISSUER names ($issuer)" \
      || fail oidc "discovery names the issuer $(jq -r .issuer <<< "$discovery"), not ISSUER $issuer"
    [[ $(in_image_network "$pid" curl -fsS http://127.0.0.1:9998/keys | jq '.keys | length') -ge 1 ]] \
      && pass oidc "the JWKS (/keys) holds a signing key" || fail oidc "the JWKS at /keys has no key"
    in_image_network "$pid" curl -fsS -o /dev/null \
        "http://127.0.0.1:9998/auth?client_id=web&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fauth%2Fcallback&response_type=code&scope=openid&state=s" -L \
      && pass oidc "an authorization request of client web leads to the login page" \
      || fail oidc "the authorization request of client web fails: $(tail -n 3 "$scratch/oidc.log")"
  else
    fail oidc "discovery did not answer on 9998 within ${start_deadline_seconds}s: $(tail -n 5 "$scratch/oidc.log")"
  fi
  stop_image "$pid"
}

check_s3() {
  local tag=$1 pid data url status
  unpack s3 "$tag" || return 0
  data=$(empty_dir "$scratch/s3-data")
  volumes=("$data:/data" "$(empty_dir "$scratch/s3-tmp"):/tmp")
  extra_env=(S3PROXY_IDENTITY=varroa-test S3PROXY_CREDENTIAL=s3-secret-for-the-check CREATE_BUCKETS=varroa-records)
  start_in_image s3 "$bundle" "$scratch/s3.log"
  pid=$started_pid
  url=http://127.0.0.1:8080/varroa-records/logs/check.txt
  # curl signs the payload hash wrong for s3proxy: unsigned payloads; octet-stream, or Jetty reads the body as a form
  local -a s3_signing=(--aws-sigv4 aws:amz:us-east-1:s3 -H "x-amz-content-sha256: UNSIGNED-PAYLOAD"
    -H "Content-Type: application/octet-stream")
  s3_request() {  # pid secret curl-arguments...
    in_image_network "$1" curl -sS -o /dev/null -w '%{http_code}' "${s3_signing[@]}" --user "varroa-test:$2" "${@:3}"
  }
  if wait_until "$pid" in_image_network "$pid" bash -c 'curl -sS -D - -o /dev/null http://127.0.0.1:8080/ | grep -qi "^x-amz-request-id"'; then
    pass s3 "s3proxy answers on 8080"
    echo "a console log line" > "$scratch/s3-object"
    status=$(s3_request "$pid" s3-secret-for-the-check -X PUT --data-binary "@$scratch/s3-object" "$url")
    [[ $status == 200 ]] && pass s3 "a signed PUT into the bucket CREATE_BUCKETS made answers 200" \
      || fail s3 "a signed PUT answered $status: $(tail -n 3 "$scratch/s3.log")"
    [[ $(in_image_network "$pid" curl -fsS "${s3_signing[@]}" --user varroa-test:s3-secret-for-the-check "$url") == "a console log line" \
       && -f $data/varroa-records/logs/check.txt ]] \
      && pass s3 "the signed GET returns the object, kept on the volume" || fail s3 "the object did not come back or is not under /data"
    status=$(s3_request "$pid" wrong-secret "$url")
    [[ $status == 403 ]] && pass s3 "a wrong secret is refused (403)" || fail s3 "a wrong secret answered $status, not 403"
  else
    fail s3 "s3proxy did not answer on 8080 within ${start_deadline_seconds}s: $(tail -n 5 "$scratch/s3.log")"
  fi
  stop_image "$pid"
}

# The manifests under test-fixtures/node/manifests: images named as the table tags them (registry a placeholder),
# pulled IfNotPresent, run as 65532 with a read-only root, and the Secrets holding the keys the chart values read.
check_manifests() {
  local manifests="$here/../node/manifests" file name tag image expected secret keys
  declare -A tag_of
  while read -r name tag rest; do [[ -z $name || $name == \#* ]] || tag_of[$name]=$tag; done < "$here/test-images.tsv"
  for file in "$manifests"/*.yaml; do
    name=$(basename "$file" .yaml)
    while read -r image; do
      expected="REGISTRY/varroa-test/$name:${tag_of[$name]:-?}"
      [[ $image == "$expected" ]] && pass "manifest $name" "image $image" \
        || fail "manifest $name" "image $image in $file, expected $expected (the tag of test-images.tsv)"
    done < <(yq -r 'select(.spec.template) | .spec.template.spec.containers[].image' "$file")
    [[ -z $(yq -r 'select(.spec.template) | .spec.template.spec.containers[]
                   | select(.imagePullPolicy != "IfNotPresent" or .securityContext.readOnlyRootFilesystem != true) | .name' "$file") \
       && $(yq -r 'select(.spec.template) | .spec.template.spec.securityContext.runAsUser' "$file") == 65532 ]] \
      && pass "manifest $name" "IfNotPresent, runs as 65532 with a read-only root" \
      || fail "manifest $name" "a container of $file is not IfNotPresent, 65532 and readOnlyRootFilesystem"
  done
  for secret in varroa-test-recordstore:dsn,password,username varroa-test-recordstore-reader:dsn,password,username \
                varroa-test-s3:access-key-id,secret-access-key varroa-test-oidc-client:client-secret; do
    keys=$(yq -r --arg name "${secret%%:*}" 'select(.kind == "Secret" and .metadata.name == $name) | .stringData | keys | join(",")' \
             "$manifests"/*.yaml)
    [[ $keys == "${secret#*:}" ]] && pass manifests "Secret ${secret%%:*} holds ${secret#*:}" \
      || fail manifests "Secret ${secret%%:*} holds '$keys', the chart reads ${secret#*:}"
  done
  # the role the init script makes is the one the dashboard's Secret names, with the same password
  local reader sql
  reader=$(yq -r 'select(.metadata.name == "varroa-test-recordstore-reader") | .stringData | "\(.username) LOGIN PASSWORD \u0027\(.password)\u0027"' "$manifests/postgres.yaml")
  sql=$(yq -r 'select(.metadata.name == "varroa-test-postgres-init") | .stringData[]' "$manifests/postgres.yaml")
  [[ $sql == *"ROLE $reader"* ]] && pass manifests "the init script creates the reader Secret's role with its password" \
    || fail manifests "the init script of varroa-test-postgres-init does not create '$reader' (the Secret varroa-test-recordstore-reader)"
}

# --- the table --------------------------------------------------------------------------------------------------

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
figures=()
check_manifests
while read -r name tag rest; do
  [[ -z $name || $name == \#* ]] && continue
  if [[ -n ${TEST_IMAGES:-} && " ${TEST_IMAGES//,/ } " != *" $name "* ]]; then continue; fi
  declare -F "check_$name" > /dev/null || { fail "$name" "check.sh has no check_$name"; continue; }
  "check_$name" "$tag"
  if [[ -d $scratch/$name/rootfs ]]; then
    figures+=("figure: test_image_size_${name}_unpacked $(mib "$(du -s --apparent-size -B1 "$scratch/$name/rootfs" | cut -f1)") MiB")
  fi
done < "$here/test-images.tsv"
printf '%s\n' "${figures[@]}"
(( ${#failures[@]} == 0 )) || die "test images check failed for: $(printf '%s\n' "${failures[@]}" | sort -u | tr '\n' ' ')"
