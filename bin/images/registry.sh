#!/usr/bin/env bash
# The loopback registry `make images` pushes to when IMAGE_REGISTRY is not set: Debian's docker-registry on
# 127.0.0.1 (port 5000, or a free one when 5000 is taken), plain HTTP, storage in the cache so pushed images
# outlive a restart. Its address (host:port) is written to $VARROA_CACHE/images/registry for later steps.
#
# usage: bin/images/registry.sh start   start it unless it already answers; prints host:port
#        bin/images/registry.sh stop    stop the one this script started
#        bin/images/registry.sh address print host:port of the running one (exit 1 when none answers)
set -euo pipefail
# shellcheck source=bin/images/common.sh
source "$(dirname "$0")/common.sh"

state="$images_cache/registry.d"
address_file="$images_cache/registry"
pid_file="$state/pid"
start_deadline_seconds=30

answers() { curl -fsS -o /dev/null --max-time 2 "http://$1/v2/"; }

running_address() {
  [[ -f $address_file && -f $pid_file ]] || return 1
  kill -0 "$(cat "$pid_file")" 2>/dev/null || return 1
  answers "$(cat "$address_file")" || return 1
  cat "$address_file"
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
  local port
  port_taken 5000 || { echo 5000; return 0; }
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 40000))
    port_taken "$port" || { echo "$port"; return 0; }
  done
  die "found no free loopback port for the registry"
}

start() {
  local address pid deadline
  if address=$(running_address); then
    echo "$address"
    return 0
  fi
  need docker-registry
  need curl
  mkdir -p "$state/storage"
  address="127.0.0.1:$(free_port)"
  cat > "$state/config.yml" <<EOF
version: 0.1
log:
  level: warn
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $state/storage
  delete:
    enabled: true
http:
  addr: $address
  secret: varroa-make-images
EOF
  # setsid: the registry outlives make, as later steps (an install from it) need
  setsid docker-registry serve "$state/config.yml" > "$state/registry.log" 2>&1 < /dev/null &
  pid=$!
  echo "$pid" > "$pid_file"
  deadline=$((SECONDS + start_deadline_seconds))
  until answers "$address" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || die "docker-registry exited at start; its log, $state/registry.log, says: $(tail -n 5 "$state/registry.log")"
    (( SECONDS < deadline )) || { kill "$pid"; die "docker-registry did not answer on $address within ${start_deadline_seconds}s (log: $state/registry.log)"; }
    sleep 0.2
  done
  echo "$address" > "$address_file"
  say "registry started on $address (pid $pid, storage $state/storage)"
  echo "$address"
}

stop() {
  if [[ -f $pid_file ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
    kill "$(cat "$pid_file")"
    say "registry stopped (pid $(cat "$pid_file"))"
  fi
  rm -f "$pid_file" "$address_file"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  address) running_address || { echo "images: no registry answers (bin/images/registry.sh start)" >&2; exit 1; } ;;
  *) die "usage: bin/images/registry.sh start|stop|address" ;;
esac
