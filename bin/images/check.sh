#!/usr/bin/env bash
# `make images-check`: checks each image `make images` left in $VARROA_CACHE/images/images/<name>/:
#   - unpacks it with umoci (root: as is; otherwise --rootless) and reads the runtime config umoci derives;
#   - it runs as 65532:65532, its entrypoint is the jlinked java (no shell in the image at all);
#   - the entrypoint with --version, in a chroot of the rootfs as 65532:65532, exits 0 and prints
#     "varroa-<name> <tag>";
#   - a probe class, run there the same way, finds the CA trust store, TLS 1.3 with EC, the home, /tmp, UTC, UTF-8;
#   - jdeps finds no module the image's classes need that its runtime lacks (runtimes.tsv);
#   - reproducible: the base assembled again (fresh jlink, same .debs) and the image built again by Jib with
#     empty Jib caches give the same manifest digests (IMAGES_CHECK_REBUILD=false skips this);
# and prints the images' sizes as `figure:` lines, last.
set -euo pipefail
# shellcheck source=bin/images/common.sh
source "$(dirname "$0")/common.sh"
read -r -a scope <<< "$(reactor_scope)"

for tool in umoci jq javac jdeps unshare chroot mvn; do need "$tool"; done
tag=$(image_tag)
rebuild=${IMAGES_CHECK_REBUILD:-true}
rows=$(buildable_image_rows)
[[ -n $rows ]] || die "no image to check (images.tsv${IMAGES:+, IMAGES=$IMAGES})"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/varroa-images-check-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failures=()
fail() { echo "images-check: FAIL $1: $2" >&2; failures+=("$1"); }
pass() { echo "images-check: ok   $1: $2" >&2; }

if [[ $(id -u) -eq 0 ]]; then
  unpack_options=()
  probe_home=/home/nonroot
else
  unpack_options=(--rootless)
  probe_home=/root
  say "not root: unpacking --rootless and running as root of a user namespace (only root can switch to 65532)"
fi

# Runs a command in the rootfs as the image's user, with only the image's environment, /proc and /dev mounted
# in a private mount namespace that ends with the command.
run_in_image() {
  local rootfs=$1 env_file=$2
  shift 2
  local -a environment user_switch namespace
  mapfile -t environment < "$env_file"
  if [[ $(id -u) -eq 0 ]]; then
    namespace=(unshare --mount --pid --fork)
    user_switch=(--userspec=65532:65532)
  else
    namespace=(unshare --map-root-user --mount --pid --fork)
    user_switch=()
  fi
  mkdir -p "$rootfs/proc" "$rootfs/dev"
  "${namespace[@]}" bash -c 'root=$1; shift; mount --rbind /dev "$root/dev" && mount -t proc proc "$root/proc" && exec "$@"' \
    run-in-image "$rootfs" "$(command -v env)" -i "${environment[@]}" "$(command -v chroot)" "${user_switch[@]}" "$rootfs" "$@" \
    < /dev/null
}

javac --release 17 -d "$scratch/probe" "$images_dir/RuntimeProbe.java"
declare -A size_compressed size_unpacked

while read -r name module main runtime; do
  out="$images_cache/images/$name"
  [[ -f $out/digest && -d $out/oci ]] || { fail "$name" "not built: run 'make images' first ($out)"; continue; }
  digest=$(cat "$out/digest")
  bundle="$scratch/$name"
  umoci unpack "${unpack_options[@]}" --image "$out/oci:$tag" "$bundle" > /dev/null \
    || { fail "$name" "umoci unpack of $out/oci:$tag failed"; continue; }
  rootfs="$bundle/rootfs"
  spec="$bundle/config.json"

  uid=$(jq -r '.process.user.uid' "$spec"); gid=$(jq -r '.process.user.gid' "$spec")
  [[ $uid == 65532 && $gid == 65532 ]] && pass "$name" "runs as 65532:65532" || fail "$name" "runs as $uid:$gid, not 65532:65532"
  mapfile -t entrypoint < <(jq -r '.process.args[]' "$spec")
  [[ ${entrypoint[0]} == /opt/java/openjdk/bin/java && ${entrypoint[-1]} == "$main" ]] \
    && pass "$name" "entrypoint ${entrypoint[*]}" || fail "$name" "entrypoint is '${entrypoint[*]}', expected the jlinked java running $main"
  shells=$(find "$rootfs" \( -name sh -o -name bash -o -name dash -o -name busybox \) -print)
  [[ -z $shells ]] && pass "$name" "no shell in the image" || fail "$name" "the image holds a shell: $shells"
  jq -r '.process.env[]' "$spec" > "$bundle/env"

  printed=$(run_in_image "$rootfs" "$bundle/env" "${entrypoint[@]}" --version 2> "$bundle/version.err") && status=0 || status=$?
  expected="varroa-$name $tag"
  if [[ $status -eq 0 && $printed == "$expected" ]]; then
    pass "$name" "--version in a chroot as 65532: $printed"
  else
    fail "$name" "--version exited $status and printed '$printed' (expected '$expected'); stderr: $(cat "$bundle/version.err")"
  fi

  mkdir -p "$rootfs/tmp/varroa-probe"
  cp "$scratch/probe/"*.class "$rootfs/tmp/varroa-probe/"
  chmod -R a+rX "$rootfs/tmp/varroa-probe"
  certificates=$(grep -c 'BEGIN CERTIFICATE' "$rootfs/etc/ssl/certs/ca-certificates.crt") || certificates=0
  probe=$(run_in_image "$rootfs" "$bundle/env" /opt/java/openjdk/bin/java -cp /tmp/varroa-probe RuntimeProbe \
            "$certificates" "$probe_home" 2>&1) \
    && pass "$name" "$probe" || fail "$name" "$probe"
  rm -rf "$rootfs/tmp/varroa-probe"

  # jdeps over the classpath Jib wrote, against the modules the runtime has plus those it leaves out on purpose
  classpath=$(sed "s|/app|$rootfs/app|g" "$rootfs/app/jib-classpath-file")
  needed=$(jdeps --multi-release 17 --ignore-missing-deps --print-module-deps -q -R --class-path "$classpath" \
             "$rootfs/app/classes" 2> "$bundle/jdeps.err" | tail -n 1) || needed=
  if [[ -z $needed ]]; then
    fail "$name" "jdeps failed: $(cat "$bundle/jdeps.err")"
  else
    present=$(sed -n 's/^MODULES="\(.*\)"/\1/p' "$rootfs/opt/java/openjdk/release")
    optional=$(runtime_field "$runtime" optional)
    lacking=()
    for m in ${needed//,/ }; do
      [[ " $present " == *" $m "* || ",$optional," == *",$m,"* ]] || lacking+=("$m")
    done
    if (( ${#lacking[@]} )); then
      fail "$name" "its classes need ${lacking[*]}, which runtime '$runtime' lacks: add them to its modules in bin/images/runtimes.tsv (or to its optional column when the library copes without)"
    else
      pass "$name" "jdeps: every module the classes need is in runtime '$runtime' ($needed)"
    fi
  fi

  manifest="$out/oci/blobs/sha256/${digest#sha256:}"
  size_compressed[$name]=$(jq '([.layers[].size] | add) + .config.size' "$manifest")
  size_unpacked[$name]=$(du -s --apparent-size -B1 "$rootfs" | cut -f1)
  rm -rf "$bundle"
done <<< "$rows"

if [[ $rebuild == true ]]; then
  # each runtime's base assembled again first, then the images rebuilt on them two at a time (IMAGES_PARALLEL);
  # a rebuild writes its verdict to a file, since pass/fail in a background job would not reach this shell
  declare -A fresh_base
  while read -r name module main runtime; do
    out="$images_cache/images/$name"
    [[ -f $out/inputs ]] || continue
    base_used=$(sed -n 4p "$out/inputs")
    if [[ -z ${fresh_base[$runtime]:-} ]]; then
      fresh_base[$runtime]="$scratch/base-$runtime"
      "$images_dir/base.sh" "$runtime" --fresh "${fresh_base[$runtime]}" < /dev/null > /dev/null
      if [[ $(cat "${fresh_base[$runtime]}/digest") == "$(cat "$base_used/digest")" ]]; then
        pass "base-$runtime" "assembled again from the same inputs: the same digest $(cat "$base_used/digest")"
      else
        fail "base-$runtime" "assembled again it is $(cat "${fresh_base[$runtime]}/digest"), the image was built on $(cat "$base_used/digest"): the base is not reproducible"
      fi
    fi
  done <<< "$rows"

  rebuild_one() {
    local name=$1 module=$2 main=$3 runtime=$4 out again verdict
    out="$images_cache/images/$name"
    again="$scratch/jib-$name"
    verdict="$scratch/verdict-$name"
    mkdir -p "$again"
    mapfile -t properties < <(jib_properties "$name" "$module" "$main" "${fresh_base[$runtime]}/base.tar" "varroa/$name:$tag")
    if maven -q -pl "$module" "${scope[@]}" -Dmaven.test.skip=true package "$jib_plugin:buildTar" "${properties[@]}" \
         "-Djib.outputPaths.tar=$again/image.tar" "-Djib.outputPaths.digest=$again/digest" \
         "-Djib.baseImageCache=$again/cache/base" "-Djib.applicationCache=$again/cache/application"; then
      if [[ $(cat "$again/digest") == "$(cat "$out/digest")" ]]; then
        printf 'pass\tbuilt again by Jib with empty caches on the base assembled again: the same digest %s\n' \
          "$(cat "$out/digest")" > "$verdict"
      else
        printf 'fail\tbuilt again it is %s, the pushed one is %s: not reproducible (or the sources changed since %s)\n' \
          "$(cat "$again/digest")" "$(cat "$out/digest")" "'make images'" > "$verdict"
      fi
    else
      printf 'fail\tthe rebuild with Jib failed\n' > "$verdict"
    fi
    rm -rf "$again"
  }

  parallel=${IMAGES_PARALLEL:-2}
  running=0
  while read -r name module main runtime; do
    [[ -f $images_cache/images/$name/inputs ]] || continue
    if (( running >= parallel )); then
      wait -n || true
      running=$((running - 1))
    fi
    rebuild_one "$name" "$module" "$main" "$runtime" < /dev/null &
    running=$((running + 1))
  done <<< "$rows"
  wait
  while read -r name module main runtime; do
    [[ -f $images_cache/images/$name/inputs ]] || continue
    if [[ -f $scratch/verdict-$name ]]; then
      IFS=$'\t' read -r outcome message < "$scratch/verdict-$name"
      if [[ $outcome == pass ]]; then pass "$name" "$message"; else fail "$name" "$message"; fi
    else
      fail "$name" "the rebuild left no verdict"
    fi
  done <<< "$rows"
fi

mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
while read -r name module main runtime; do
  [[ -n ${size_compressed[$name]:-} ]] || continue
  echo "figure: image_size_$name $(mib "${size_compressed[$name]}") MiB"
  echo "figure: image_size_${name}_unpacked $(mib "${size_unpacked[$name]}") MiB"
done <<< "$rows"

if (( ${#failures[@]} )); then
  die "images-check failed for: ${failures[*]}"
fi
