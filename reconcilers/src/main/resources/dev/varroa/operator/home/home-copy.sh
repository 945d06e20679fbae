# Copies JENKINS_HOME from one volume to another and proves the copy: the command of the home move's Jobs
# (HomeCopyJobRenderer). POSIX sh with rsync and coreutils or busybox; docs/storage-moves.md.
#
#   home-copy.sh copy    rsync the old home onto the new one; reports "copied files=N bytes=M"
#   home-copy.sh verify  compares both homes; reports "verified files=N bytes=M trees=SHA256" or exits 1
#                        with "verify failed: ..." naming the paths that differ
#
# VARROA_HOME_FROM and VARROA_HOME_TO are the two homes (mount paths in the Job, folders in a test); the report
# goes to VARROA_TERMINATION_LOG (the container's terminationMessagePath), where the operator reads it.
set -eu

# Byte order, not the locale's, so both listings sort the same wherever they are made.
LC_ALL=C
export LC_ALL

from=${VARROA_HOME_FROM:?VARROA_HOME_FROM must name the old home}
to=${VARROA_HOME_TO:?VARROA_HOME_TO must name the new home}
report=${VARROA_TERMINATION_LOG:-/dev/termination-log}
# What an agent needs to reconnect after a restart (seed 003): compared file by file, content included.
trees="secrets nodes"
# A termination message holds 4 KiB: name this many paths at most.
most=10

say() {
  printf '%s\n' "$1"
  printf '%s\n' "$1" > "$report"
}

fail() {
  say "$1" >&2
  exit 1
}

# "FILES BYTES": every entry below the folder, and the bytes of its regular files with hard links counted once.
figures() {
  files=$(cd "$1" && find . -mindepth 1 | wc -l)
  bytes=$(cd "$1" && find . -type f -exec stat -c '%i %s' {} + | sort -u | awk '{ b += $2 } END { printf "%.0f", b }')
  echo "$((files)) ${bytes:-0}"
}

# One line per entry of the trees: path, then kind, mode, numeric owner and content (a checksum or a link target).
listing() {
  (
    cd "$1"
    for tree in $trees; do
      if [ ! -e "$tree" ] && [ ! -L "$tree" ]; then
        printf '%s\tabsent\n' "$tree"
        continue
      fi
      find "$tree" | sort | while IFS= read -r path; do
        if [ -L "$path" ]; then
          printf '%s\tlink %s %s\n' "$path" "$(stat -c '%u:%g' "$path")" "$(readlink "$path")"
        elif [ -f "$path" ]; then
          sum=$(sha256sum < "$path")
          printf '%s\tfile %s %s\n' "$path" "$(stat -c '%a %u:%g' "$path")" "${sum%% *}"
        else
          printf '%s\t%s\n' "$path" "$(stat -c '%F %a %u:%g' "$path")"
        fi
      done
    done
  )
}

# Paths whose lines differ between two listings, or that only one has.
differing() {
  awk -F '\t' 'NR == FNR { seen[$1] = $0; next }
    { if (!($1 in seen) || seen[$1] != $0) print $1; delete seen[$1] }
    END { for (p in seen) print p }' "$1" "$2" | sort | head -n "$most" | tr '\n' ' ' | sed -e 's/ $//'
}

copy() {
  [ -d "$from" ] || fail "copy failed: the old home $from is not a folder"
  [ -d "$to" ] || fail "copy failed: the new home $to is not a folder"
  # -a modes, times, symlinks; -H hard links; -A ACLs; -X extended attributes; numeric ids: owners as numbers,
  # since the Job's image has none of Jenkins' user names; --delete: a retried copy leaves nothing of an earlier try.
  if ! rsync -aHAX --numeric-ids --delete "$from/" "$to/"; then
    fail "copy failed: rsync from $from to $to exited non-zero; its messages are in the Job's log"
  fi
  set -- $(figures "$to")
  say "copied files=$1 bytes=$2"
}

verify() {
  [ -d "$from" ] || fail "verify failed: the old home $from is not a folder"
  [ -d "$to" ] || fail "verify failed: the new home $to is not a folder"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT

  # rsync's own comparison (size, time, mode, owner, links) lists anything changed since the copy, by name.
  rsync -aHAXn --numeric-ids --delete -i "$from/" "$to/" > "$work/changes" \
    || fail "verify failed: rsync could not compare $from with $to"
  changed=$(sed -e 's/^[^ ]* *//' "$work/changes" | grep -v '^\./$' | sort | head -n "$most" | tr '\n' ' ' | sed -e 's/ $//' || true)
  [ -z "$changed" ] || fail "verify failed: changed since the copy: $changed"

  set -- $(figures "$from")
  from_files=$1 from_bytes=$2
  set -- $(figures "$to")
  [ "$from_files" = "$1" ] || fail "verify failed: $from_files entries in the old home, $1 in the new"
  [ "$from_bytes" = "$2" ] || fail "verify failed: $from_bytes bytes in the old home, $2 in the new"

  listing "$from" > "$work/from"
  listing "$to" > "$work/to"
  differ=$(differing "$work/from" "$work/to")
  [ -z "$differ" ] || fail "verify failed: differ in content, mode or owner: $differ"
  trees_sum=$(sha256sum < "$work/to")
  say "verified files=$1 bytes=$2 trees=${trees_sum%% *}"
}

case "${1:-}" in
  copy) copy ;;
  verify) verify ;;
  *) fail "usage: home-copy.sh copy|verify (got '${1:-}')" ;;
esac
