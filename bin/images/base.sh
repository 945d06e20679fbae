#!/usr/bin/env bash
# Assembles the base image of one Java runtime of runtimes.tsv, with no container registry and no Docker:
#   layer 1: Debian 12 packages (libc6, zlib1g, ca-certificates, tzdata and the C libraries the jlinked runtime
#            links, found with ldd; the C.UTF-8 locale of libc-bin, the os-release of base-files), unpacked with
#            dpkg-deb and trimmed of docs, plus /etc (passwd and group with
#            user 65532 "nonroot", CA bundle, Java trust store, UTC, nsswitch), /home/nonroot, /tmp;
#   layer 2: the runtime, jlinked from this machine's JDK 17 into /opt/java/openjdk.
# The layers are tarred reproducibly (sorted, fixed owners and times, no atime/ctime) and put together with
# umoci; skopeo writes the docker-archive Jib takes as a tar:// base. Same inputs, same digests.
# Cached in $VARROA_CACHE/images/{jre,debs,base}, keyed by every input. Prints the base's folder, which holds
# oci/ (the layout), base.tar (the docker-archive), digest, name, packages, modules and ca-certificates.
#
# usage: bin/images/base.sh RUNTIME            the cached base, built when an input changed
#        bin/images/base.sh RUNTIME --fresh DIR  jlink and assemble again into DIR (same .debs), for check.sh
set -euo pipefail
# shellcheck source=bin/images/common.sh
source "$(dirname "$0")/common.sh"

runtime=${1:?usage: bin/images/base.sh RUNTIME [--fresh DIR]}
fresh_out=
if [[ $# -gt 1 ]]; then
  [[ $2 == --fresh && -n ${3:-} ]] || die "usage: bin/images/base.sh RUNTIME [--fresh DIR]"
  fresh_out=$3
fi
for tool in dpkg dpkg-deb apt-get apt-cache umoci skopeo jq tar ldd java; do need "$tool"; done

modules=$(runtime_field "$runtime")
java_home=$(jdk_home)
jlink_options=(--no-header-files --no-man-pages --strip-debug --compress=2)
java_dir=/opt/java/openjdk
mkdir -p "$images_cache"/{jre,debs,base}
work=
trap '[[ -z $work ]] || rm -rf "$work"' EXIT

# jlink the runtime into a folder, with .debian-packages listing what its libraries come from.
make_runtime() {
  local into=$1 lib
  jlink "${jlink_options[@]}" --add-modules "$modules" --output "$into" \
    || die "jlink failed for runtime '$runtime' (modules: $modules)"
  for lib in $(linked_libraries "$into"); do owning_package "$lib"; done | sort -u > "$into/.debian-packages"
}

# --- the runtime, cached by its modules, the jlink options and the JDK's own files -------------------------
jdk_key=$( { cat "$java_home/release"; (cd "$java_home/jmods" && sha256sum ./*.jmod); } | short_hash)
jre_key=$(printf '%s\n' "$modules" "${jlink_options[*]}" "$jdk_key" | short_hash)
jre="$images_cache/jre/$runtime-$jre_key"
if [[ ! -f $jre/.complete ]]; then
  say "jlink runtime '$runtime': $modules"
  work=$(mktemp -d "$images_cache/jre/.staging-XXXXXX")
  make_runtime "$work/jre"
  touch "$work/jre/.complete"
  rm -rf "$jre"
  mv "$work/jre" "$jre"
  rm -rf "$work"
  find "$images_cache/jre" -mindepth 1 -maxdepth 1 -name "$runtime-*" ! -name "$runtime-$jre_key" -exec rm -rf {} +
fi

# --- the Debian packages: this machine's candidate versions, each downloaded once --------------------------
# Two give only a few files: base-files /etc/os-release and /etc/debian_version (scanners read them to know the
# distribution), libc-bin the C.UTF-8 locale (with LANG=C.UTF-8, Java's file names and default charset are UTF-8).
declare -A only_files=(
  [base-files]="./etc/os-release ./usr/lib/os-release ./etc/debian_version"
  [libc-bin]="./usr/lib/locale/C.utf8"
)
packages=$(printf '%s\n' libc6 zlib1g ca-certificates tzdata "${!only_files[@]}" $(cat "$jre/.debian-packages") | sort -u)

declare -A deb_of
for package in $packages; do
  deb_of[$package]=$(debian_package "$package")
done

# --- the base's key: the runtime, each package file, the files that assemble it, the time -------------------
base_key=$( {
  echo "$jre_key $SOURCE_DATE_EPOCH"
  for package in $packages; do sha256sum "${deb_of[$package]}" | cut -c1-64; done
  cat "$0" "$images_dir/common.sh" "$images_dir/TrustStoreWriter.java"
} | short_hash)
base_name="varroa/base-$runtime:$base_key"
if [[ -z $fresh_out ]]; then
  out="$images_cache/base/$runtime-$base_key"
  if [[ -f $out/.complete ]]; then
    echo "$out"
    exit 0
  fi
else
  out=$fresh_out
fi

say "assemble base '$runtime' ($base_key): $(echo $packages)"
work=$(mktemp -d "$images_cache/base/.staging-XXXXXX")
root="$work/debian"
java_root="$work/java"
mkdir -p "$root/var/lib/dpkg/status.d" "$java_root$(dirname "$java_dir")"
if [[ -n $fresh_out ]]; then
  make_runtime "$work/jre"
  jre_used="$work/jre"
else
  jre_used=$jre
fi

for package in $packages; do
  if [[ -n ${only_files[$package]:-} ]]; then
    dpkg-deb --fsys-tarfile "${deb_of[$package]}" | tar -x -C "$root" ${only_files[$package]}
    continue
  fi
  dpkg-deb -x "${deb_of[$package]}" "$root"
  # the control fields, which is what scanners read to know the packages (as distroless images record them)
  dpkg-deb -f "${deb_of[$package]}" > "$root/var/lib/dpkg/status.d/$package"
done

trim_debian_tree "$root"
rm -rf "$root/usr/share/zoneinfo/right" "$root/usr/sbin" "$root/etc/ca-certificates"

# The CA bundle as update-ca-certificates writes it, and the same certificates as Java's trust store.
certificates="$root/usr/share/ca-certificates/mozilla"
mkdir -p "$root/etc/ssl/certs/java"
for certificate in "$certificates"/*.crt; do
  cat "$certificate"
  [[ -z $(tail -c1 "$certificate") ]] || echo
done > "$root/etc/ssl/certs/ca-certificates.crt"
certificate_count=$(java "$images_dir/TrustStoreWriter.java" "$certificates" "$root/etc/ssl/certs/java/cacerts") \
  || die "could not write the Java trust store from $certificates"
rm -rf "$root/usr/share/ca-certificates"

write_nonroot_accounts "$root"
echo Etc/UTC > "$root/etc/timezone"
cp -a "$jre_used" "$java_root$java_dir"
rm -f "$java_root$java_dir/.complete" "$java_root$java_dir/.debian-packages"

# Modes before the absolute symlinks below, which point into the image, not at this machine.
for tree in "$root" "$java_root"; do
  find "$tree" ! -type l -exec chmod u+rwX,go+rX,go-w,-s {} +
  [[ -z $(find "$tree" \( -name sh -o -name bash -o -name dash \) -print -quit) ]] || die "a shell got into the base"
done
chmod 1777 "$root/tmp"
chmod 0700 "$root/root" "$root/home/nonroot"
ln -s /usr/share/zoneinfo/Etc/UTC "$root/etc/localtime"
# the runtime's copy of OpenJDK's CA list gives way to Debian's
ln -sf /etc/ssl/certs/java/cacerts "$java_root$java_dir/lib/security/cacerts"

layer_tar "$root" "$work/debian.tar"
layer_tar "$java_root" "$work/java.tar"

created=$(source_date)
layout="$work/oci"
java_release=$(awk -F'"' '/^JAVA_RUNTIME_VERSION=/ { print $2 }' "$java_home/release")
umoci init --layout "$layout"
umoci new --image "$layout:base"
umoci raw add-layer --image "$layout:base" --history.created "$created" --history.author Varroa \
  --history.created_by "bin/images/base.sh: Debian packages $(echo $packages)" "$work/debian.tar"
umoci raw add-layer --image "$layout:base" --history.created "$created" --history.author Varroa \
  --history.created_by "bin/images/base.sh: jlink --add-modules $modules (OpenJDK $java_release)" "$work/java.tar"
umoci config --image "$layout:base" --no-history --created "$created" --author Varroa \
  --config.user 65532:65532 --config.workingdir /home/nonroot \
  --config.env "PATH=$java_dir/bin:/usr/bin:/bin" --config.env "JAVA_HOME=$java_dir" --config.env LANG=C.UTF-8 \
  --config.env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
  --config.label "org.opencontainers.image.title=varroa-base-$runtime"
umoci gc --layout "$layout"
skopeo --insecure-policy copy --quiet "oci:$layout:base" "docker-archive:$work/base.tar:$base_name"

jq -r '.manifests[0].digest' "$layout/index.json" > "$work/digest"
echo "$certificate_count" > "$work/ca-certificates"
echo $packages > "$work/packages"
echo "$modules" > "$work/modules"
echo "$base_name" > "$work/name"
rm -rf "$root" "$java_root" "$work/jre" "$work/debian.tar" "$work/java.tar"
touch "$work/.complete"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$work" "$out"
work=
if [[ -z $fresh_out ]]; then
  find "$images_cache/base" -mindepth 1 -maxdepth 1 -name "$runtime-*" ! -name "$runtime-$base_key" -exec rm -rf {} +
fi
say "base '$runtime' ready: $base_name, manifest $(cat "$out/digest")"
echo "$out"
