#!/usr/bin/env bash
# Builds the test images of test-images.tsv and pushes them as <registry>/varroa-test/<name>:<tag>: stand-ins, for
# the real-node tests, for the upstream images the chart (or its record store, OpenID provider and object store)
# would pull and this machine cannot (docker.io/library/nats, Dex, CloudNativePG, an S3 server). Never shipped as
# Varroa's. No Docker: Debian packages unpacked with dpkg-deb (plus the libraries their programs link, found with
# ldd), a Go binary, a jar on the standard Java base of bin/images/base.sh; layers tarred reproducibly and put
# together with umoci; skopeo pushes them. Each runs as 65532 with a read-only root possible (writable paths are
# volumes).
#
# Cached in $VARROA_CACHE/images/test-images/<name>/ (oci/ layout, digest, key, pushed), keyed by every input: a
# second run with the same inputs only checks that the registry holds the same manifest. One build at a time (flock).
# Prints `figure: test_image_size_<name> N MiB` last (compressed layers and config).
#
# Environment:
#   IMAGE_REGISTRY           host[:port] to push to; unset: the loopback registry of bin/images/registry.sh
#   IMAGE_REGISTRY_INSECURE  true: plain HTTP for IMAGE_REGISTRY (always so for the loopback one)
#   TEST_IMAGES              names to build (space- or comma-separated); unset: every line of test-images.tsv
#   VARROA_CACHE             cache root (default ~/.cache/varroa)
#   SOURCE_DATE_EPOCH        the time written into the images (default 0)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bin/images/common.sh
source "$here/../../bin/images/common.sh"

for tool in dpkg dpkg-deb apt-cache apt-get ldd umoci skopeo jq tar go javac flock sha256sum; do need "$tool"; done
test_cache="$images_cache/test-images"
mkdir -p "$test_cache"
exec 9> "$test_cache/.lock"
flock 9
work=
trap '[[ -z $work ]] || rm -rf "$work"' EXIT

# The rows of test-images.tsv (name tag), comments and blank lines left out; TEST_IMAGES="a b" keeps only those.
test_image_rows() {
  local name tag rest wanted
  while read -r name tag rest; do
    [[ -z $name || $name == \#* ]] && continue
    [[ -n $tag && -n $rest ]] || die "test-images.tsv: the line for '$name' needs: name tag description"
    if [[ -n ${TEST_IMAGES:-} ]]; then
      wanted=" ${TEST_IMAGES//,/ } "
      [[ $wanted == *" $name "* ]] || continue
    fi
    declare -F "recipe_$name" > /dev/null || die "test-images.tsv names '$name', which build.sh has no recipe_$name for"
    echo "$name $tag"
  done < "$here/test-images.tsv"
}

# --- Debian packages and the libraries their programs link --------------------------------------------------

# Unpacks packages into a folder, with their control fields in var/lib/dpkg/status.d (what scanners read).
unpack_debian_packages() {
  require_image_root "${1:-}"
  local root=$1 package deb
  shift
  mkdir -p "$root/var/lib/dpkg/status.d"
  for package in "$@"; do
    deb=$(debian_package "$package")
    dpkg-deb -x "$deb" "$root"
    dpkg-deb -f "$deb" > "$root/var/lib/dpkg/status.d/$package"
  done
}

# The Debian packages of the libraries a folder's programs link, beside libc6; cached by the programs' packages.
library_packages() {
  local root=$1 key list lib
  key=$( { for package in "${@:2}"; do basename "$(debian_package "$package")"; done; } | short_hash)
  list="$test_cache/libraries/$key"
  if [[ ! -f $list ]]; then
    mkdir -p "$test_cache/libraries"
    { echo libc6; for lib in $(linked_libraries "$root"); do owning_package "$lib"; done; } | sort -u > "$list.new"
    mv "$list.new" "$list"
  fi
  cat "$list"
}

# A root of Debian programs: the packages, pruned by the recipe, then the packages of the libraries they link,
# the distribution's os-release, the accounts, no manuals.
debian_root() {
  local root=$1 prune=$2 libraries
  shift 2
  unpack_debian_packages "$root" "$@"
  "$prune" "$root"
  libraries=$(library_packages "$root" "$@")
  # shellcheck disable=SC2086
  unpack_debian_packages "$root" $libraries
  dpkg-deb --fsys-tarfile "$(debian_package base-files)" | tar -x -C "$root" ./etc/os-release ./usr/lib/os-release ./etc/debian_version
  trim_debian_tree "$root"
  rm -rf "$root/lib/systemd" "$root/usr/lib/systemd"   # no init system runs in a container
  write_nonroot_accounts "$root"
}

# The upstream version of a package's candidate, e.g. 2.9.10 for 2.9.10-1+b3.
upstream_version() {
  local version
  version=$(candidate_version "$1")
  version=${version#*:}
  echo "${version%%-*}"
}

require_tag() {
  local name=$1 tag=$2 found=$3 where=$4
  [[ $found == "$tag" || $found == "$tag".* ]] \
    || die "test image $name: $where is version $found, but test-images.tsv tags it $tag: change the tag there (and where the tests name it)"
}

# --- the recipes: each prints its key's inputs (recipe_NAME key) or fills a root (recipe_NAME root DIR) -------
# and sets the image's config: entrypoint, env, ports, volumes, owned (paths owned by 65532), base (a layout).

nats_packages=(nats-server wget)
prune_nats() { :; }
recipe_nats() {
  local tag=$2
  entrypoint=(/usr/sbin/nats-server)
  env=("PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin")
  ports=(4222/tcp 6222/tcp 8222/tcp)
  volumes=(/data)
  owned=(data home/nonroot)
  base=
  case $1 in
    key) require_tag nats "$tag" "$(upstream_version nats-server)" "Debian's nats-server"
         for package in "${nats_packages[@]}"; do basename "$(debian_package "$package")"; done ;;
    root) debian_root "$3" prune_nats "${nats_packages[@]}"
          mkdir -p "$3/data" ;;
  esac
}

postgres_packages=(postgresql-15 dash tzdata)
postgres_bin=usr/lib/postgresql/15/bin
# The server alone: no JIT (it links LLVM, 100 MB), no client programs, no Debian cluster wrappers.
prune_postgres() {
  local root=$1 program
  rm -rf "$root/usr/lib/postgresql/15/lib/llvmjit"* "$root/usr/lib/postgresql/15/lib/bitcode" \
    "$root/usr/share/zoneinfo/right" "$root/etc/postgresql-common" "$root/usr/share/postgresql-common"
  for program in "$root/$postgres_bin"/*; do
    case ${program##*/} in postgres|initdb|pg_ctl|pg_controldata) ;; *) rm -f "$program" ;; esac
  done
}
recipe_postgres() {
  local tag=$2
  entrypoint=(/usr/local/bin/postgres-entrypoint)
  env=("PATH=/usr/local/bin:/$postgres_bin:/usr/bin:/bin" PGDATA=/var/lib/postgresql/data TZ=Etc/UTC LANG=C.UTF-8)
  ports=(5432/tcp)
  volumes=(/var/lib/postgresql/data /var/run/postgresql)
  owned=(var/lib/postgresql var/run/postgresql home/nonroot)
  base=
  case $1 in
    key) require_tag postgres "$tag" "$(upstream_version postgresql-15)" "Debian's postgresql-15"
         for package in "${postgres_packages[@]}"; do basename "$(debian_package "$package")"; done
         cat "$here/postgres/postgres-entrypoint" ;;
    root) debian_root "$3" prune_postgres "${postgres_packages[@]}"
          install -D -m 0755 "$here/postgres/postgres-entrypoint" "$3/usr/local/bin/postgres-entrypoint"
          mkdir -p "$3/var/lib/postgresql/data" "$3/var/run/postgresql" "$3/docker-entrypoint-initdb.d"
          ln -sf /usr/share/zoneinfo/Etc/UTC "$3/etc/localtime" ;;
  esac
}

oidc_source="$here/oidc"
recipe_oidc() {
  local tag=$2 required binary
  entrypoint=(/usr/local/bin/oidc-provider)
  env=(PORT=9998)
  ports=(9998/tcp)
  volumes=()
  owned=(home/nonroot)
  base=
  case $1 in
    key) required=$(awk '$1 == "require" && $2 == "github.com/zitadel/oidc/v3" { print $3 }' "$oidc_source/go.mod")
         require_tag oidc "$tag" "${required#v}" "test-fixtures/images/oidc/go.mod's github.com/zitadel/oidc/v3"
         go version
         cat "$oidc_source/go.mod" "$oidc_source/go.sum" "$oidc_source/main.go" ;;
    root) binary="$3/usr/local/bin/oidc-provider"
          mkdir -p "$(dirname "$binary")"
          # static, without build ids or paths: the same sources give the same binary
          (cd "$oidc_source" && GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod \
             go build -trimpath -ldflags "-s -w -buildid=" -o "$binary" .) \
            || die "test image oidc: go build in $oidc_source failed (Go modules from $(go env GOPROXY))"
          dpkg-deb --fsys-tarfile "$(debian_package base-files)" | tar -x -C "$3" ./etc/os-release ./usr/lib/os-release
          write_nonroot_accounts "$3" ;;
  esac
}

s3proxy_dir="$test_cache/s3proxy"
# The parent POM's s3proxy.version, the one the S3 fixture (S3ServerProcess) runs.
s3proxy_version() {
  sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' "$repo_root/pom.xml"
}
s3proxy_jar() {
  local version jar
  version=$(s3proxy_version)
  jar="$s3proxy_dir/s3proxy-$version-jar-with-dependencies.jar"
  if [[ ! -f $jar ]]; then
    say "s3proxy $version: copying org.gaul:s3proxy's jar-with-dependencies from Maven"
    mkdir -p "$s3proxy_dir"
    maven -q dependency:copy "-Dartifact=org.gaul:s3proxy:$version:jar:jar-with-dependencies" \
      "-DoutputDirectory=$s3proxy_dir" -Dmdep.overWriteReleases=false > "$s3proxy_dir/maven.log" 2>&1 \
      || die "test image s3: Maven could not copy org.gaul:s3proxy:$version:jar:jar-with-dependencies: $(tail -n 5 "$s3proxy_dir/maven.log")"
  fi
  echo "$jar"
}
recipe_s3() {
  local tag=$2 java=/opt/java/openjdk/bin/java classes
  entrypoint=("$java" -XX:-UsePerfData -XX:+UseSerialGC -XX:MaxRAMPercentage=75 -XX:TieredStopAtLevel=1
    -cp /opt/s3proxy/classes:/opt/s3proxy/s3proxy.jar dev.varroa.testimages.s3.S3ProxyEnvironment)
  env=()
  ports=(8080/tcp)
  volumes=(/data)
  owned=(data)
  base=$("$images_dir/base.sh" standard < /dev/null)/oci:base
  case $1 in
    key) require_tag s3 "$tag" "$(s3proxy_version)" "the parent POM's s3proxy.version"
         cat "${base%:base}/../digest"
         sha256sum < "$(s3proxy_jar)"
         javac -version 2>&1
         cat "$here/s3/S3ProxyEnvironment.java" "$here/s3/s3proxy.properties" ;;
    root) classes="$3/opt/s3proxy/classes"
          mkdir -p "$classes" "$3/etc/s3proxy" "$3/data"
          cp "$(s3proxy_jar)" "$3/opt/s3proxy/s3proxy.jar"
          javac --release 17 -nowarn -cp "$3/opt/s3proxy/s3proxy.jar" -d "$classes" "$here/s3/S3ProxyEnvironment.java" \
            || die "test image s3: javac of test-fixtures/images/s3/S3ProxyEnvironment.java failed"
          cp "$here/s3/s3proxy.properties" "$3/etc/s3proxy/s3proxy.properties" ;;
  esac
}

# --- assembling and pushing -----------------------------------------------------------------------------------

# One image into $test_cache/<name>: the root as one layer (on the base's layers, if any), the config, a gc'd layout.
assemble() {
  local name=$1 tag=$2 key=$3 root layout created argument
  local -a config_options=()
  work=$(mktemp -d "$test_cache/.staging-XXXXXX")
  root="$work/root"
  layout="$work/oci"
  mkdir -p "$root"
  "recipe_$name" root "$tag" "$root"
  find "$root" ! -type l -exec chmod u+rwX,go+rX,go-w,-s {} +
  [[ ! -d $root/tmp ]] || chmod 1777 "$root/tmp"
  [[ ! -d $root/root ]] || chmod 0700 "$root/root"
  # the paths 65532 owns: folders the image writes to when run without a volume
  layer_tar "$root" "$work/layer.tar" "${owned[@]}"

  created=$(source_date)
  if [[ -n $base ]]; then
    skopeo --insecure-policy copy --quiet "oci:$base" "oci:$layout:$tag"
  else
    umoci init --layout "$layout"
    umoci new --image "$layout:$tag"
  fi
  umoci raw add-layer --image "$layout:$tag" --history.created "$created" --history.author Varroa \
    --history.created_by "test-fixtures/images/build.sh: varroa-test/$name" "$work/layer.tar"
  for argument in "${entrypoint[@]}"; do config_options+=(--config.entrypoint "$argument"); done
  for argument in "${env[@]}"; do config_options+=(--config.env "$argument"); done
  for argument in "${ports[@]}"; do config_options+=(--config.exposedports "$argument"); done
  for argument in "${volumes[@]}"; do config_options+=(--config.volume "$argument"); done
  umoci config --image "$layout:$tag" --no-history --created "$created" --author Varroa \
    --config.user 65532:65532 --config.workingdir / --clear=config.cmd "${config_options[@]}" \
    --config.label "org.opencontainers.image.title=varroa-test-$name" \
    --config.label "org.opencontainers.image.version=$tag" \
    --config.label "org.opencontainers.image.description=a test image of Varroa's real-node tests, not shipped"
  umoci gc --layout "$layout"
  jq -r '.manifests[0].digest' "$layout/index.json" > "$work/digest"
  echo "$key" > "$work/key"
  rm -rf "$root" "$work/layer.tar"
  rm -rf "${test_cache:?}/$name"
  mv "$work" "$test_cache/$name"
  work=
}

# 9>&-: the registry outlives this script and must not hold its lock
select_registry 9>&-

rows=$(test_image_rows)
[[ -n $rows ]] || die "no test image to build (test-images.tsv${TEST_IMAGES:+, TEST_IMAGES=$TEST_IMAGES})"
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
figures=()
while read -r name tag; do
  key=$( { "recipe_$name" key "$tag"; cat "$0" "$images_dir/common.sh" "$here/test-images.tsv"; echo "$SOURCE_DATE_EPOCH"; } | short_hash)
  out="$test_cache/$name"
  if [[ -f $out/key && $(cat "$out/key") == "$key" && -f $out/digest ]]; then
    say "varroa-test/$name:$tag is up to date ($key)"
  else
    say "assemble varroa-test/$name:$tag ($key)"
    assemble "$name" "$tag" "$key"
  fi
  digest=$(cat "$out/digest")
  image="$registry/varroa-test/$name:$tag"
  pushed=$(skopeo inspect "${skopeo_tls[@]}" --raw "docker://$image" 2> /dev/null < /dev/null | sha256sum | cut -d' ' -f1) || pushed=
  if [[ sha256:$pushed != "$digest" ]]; then
    skopeo --insecure-policy copy --quiet "${skopeo_tls[@]/--tls-verify/--dest-tls-verify}" \
      "oci:$out/oci:$tag" "docker://$image" < /dev/null || die "could not push $image to $registry"
    pushed=$(skopeo inspect "${skopeo_tls[@]}" --raw "docker://$image" < /dev/null | sha256sum | cut -d' ' -f1) \
      || die "cannot read back $image from $registry"
    [[ sha256:$pushed == "$digest" ]] \
      || die "test image $name: the pushed manifest (sha256:$pushed) differs from the layout's ($digest) in $out/oci"
    say "varroa-test/$name pushed: $image@$digest"
  else
    say "varroa-test/$name already in $registry: $image@$digest"
  fi
  echo "$image" > "$out/pushed"
  manifest="$out/oci/blobs/sha256/${digest#sha256:}"
  figures+=("figure: test_image_size_$name $(mib "$(jq '([.layers[].size] | add) + .config.size' "$manifest")") MiB")
done <<< "$rows"
printf '%s\n' "${figures[@]}"
