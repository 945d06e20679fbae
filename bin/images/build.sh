#!/usr/bin/env bash
# `make images`: for each line of bin/images/images.tsv, packages the module with Maven and builds the image with Jib
# on the base bin/images/base.sh assembled for its runtime, and pushes it as ${IMAGE_REGISTRY}/varroa/<name>:<tag>
# (tag: the project version without -SNAPSHOT). Jib also writes the same image as an OCI archive; the two
# manifest digests must be equal. The archive, an OCI layout made from it and the digest stay in
# $VARROA_CACHE/images/images/<name>/ for bin/images/check.sh.
#
# Environment:
#   IMAGE_REGISTRY           host[:port][/path] to push to; unset: a docker-registry started on loopback
#                            (bin/images/registry.sh; its address is written to $VARROA_CACHE/images/registry)
#   IMAGE_REGISTRY_INSECURE  true: plain HTTP / unverified TLS for IMAGE_REGISTRY (always so for the loopback one)
#   IMAGES                   names to build (space- or comma-separated); unset: every line of images.tsv
#   VARROA_CACHE             cache root (default ~/.cache/varroa)
#   SOURCE_DATE_EPOCH        the time written into the images (default 0, 1970-01-01)
#   MVN                      the Maven command (default: mvn -B -ntp)
set -euo pipefail
# shellcheck source=bin/images/common.sh
source "$(dirname "$0")/common.sh"
read -r -a scope <<< "$(reactor_scope)"

for tool in mvn skopeo jq; do need "$tool"; done
tag=$(image_tag)

rows=$(buildable_image_rows)
[[ -n $rows ]] || die "no image to build (images.tsv${IMAGES:+, IMAGES=$IMAGES})"

select_registry

# One base per runtime, shared by the images on it.
declare -A base_of
while read -r name module main runtime; do
  [[ -n ${base_of[$runtime]:-} ]] || base_of[$runtime]=$("$images_dir/base.sh" "$runtime" < /dev/null)
done <<< "$rows"

# One image: Jib builds and pushes it, and the pushed manifest is read back and compared.
build_one() {
  local name=$1 module=$2 main=$3 runtime=$4 out image
  out="$images_cache/images/$name"
  rm -rf "$out"
  mkdir -p "$out"
  image="$registry/varroa/$name:$tag"
  say "jib $image (module $module, main $main, runtime $runtime)"
  mapfile -t properties < <(jib_properties "$name" "$module" "$main" "${base_of[$runtime]}/base.tar" "$image")
  # package in the same reactor, so that Jib takes the modules' fresh jars and not stale ones in ~/.m2
  # (IMAGES_FROM_INSTALLED=true: the tree was just installed, ~/.m2 holds exactly these jars)
  maven -q -pl "$module" "${scope[@]}" -Dmaven.test.skip=true package "$jib_plugin:build" "$jib_plugin:buildTar" "${properties[@]}" \
    "-Djib.allowInsecureRegistries=$insecure" \
    "-Djib.outputPaths.tar=$out/image.tar" "-Djib.outputPaths.digest=$out/jib-digest" \
    "-Djib.baseImageCache=$images_cache/jib/base" "-Djib.applicationCache=$images_cache/jib/application/$name" \
    || die "jib failed for $name ($image); see Maven's messages above"

  pushed=$(skopeo inspect "${skopeo_tls[@]}" --raw "docker://$image" < /dev/null | sha256sum | cut -d' ' -f1) \
    || die "cannot read back $image from $registry"
  built=$(cut -d: -f2 < "$out/jib-digest")
  [[ sha256:$pushed == "sha256:$built" ]] \
    || die "$name: the pushed manifest (sha256:$pushed) differs from the one Jib wrote to $out/image.tar (sha256:$built): the build is not reproducible"
  skopeo --insecure-policy copy --quiet "oci-archive:$out/image.tar" "oci:$out/oci:$tag" < /dev/null
  [[ $(jq -r '.manifests[0].digest' "$out/oci/index.json") == "sha256:$built" ]] \
    || die "$name: the OCI layout in $out/oci does not keep the manifest digest sha256:$built"
  echo "sha256:$built" > "$out/digest"
  echo "$image" > "$out/pushed"
  printf '%s\n' "$module" "$main" "$runtime" "${base_of[$runtime]}" > "$out/inputs"
  say "$name pushed: $image@sha256:$built"
}

# Two images at a time (IMAGES_PARALLEL): each is a Maven run that mostly waits on its own JVM start and I/O.
parallel=${IMAGES_PARALLEL:-2}
failed=0
running=0
while read -r name module main runtime; do
  if (( running >= parallel )); then
    wait -n || failed=1
    running=$((running - 1))
  fi
  build_one "$name" "$module" "$main" "$runtime" < /dev/null &
  running=$((running + 1))
done <<< "$rows"
while (( running > 0 )); do
  wait -n || failed=1
  running=$((running - 1))
done
(( failed == 0 )) || die "an image did not build; see the messages above"
