#!/usr/bin/env bash
# The Jenkins stand-in test image, varroa-test/jenkins:<tag>: what a Controller's pod runs as its Jenkins container on
# a real node in tests, since Jenkins cannot be fetched here. NOT Jenkins and never shipped: the Jenkins contract
# fixture and the plugin core (module test-fixtures/jenkins-standin, main JenkinsStandInMain), plus
#   - jenkins-plugin-cli (/usr/local/bin), the stand-in the operator's `plugins` init container runs;
#   - sh (Debian's busybox-static, its applets in /bin, wget left out: it crashes here) and curl with the libraries it
#     links (Debian's packages), for the preStop drain hook JenkinsContainer renders (`sh -c` ... curl);
#   - the jenkins user 1000:1000 (what JenkinsPodSecurity renders: runAsUser/runAsGroup/fsGroup 1000) and
#     /var/jenkins_home owned by it.
# Built like bin/images/build.sh builds the product images: on the `standard` base of bin/images/base.sh, with Jib
# taking the module's fresh jars from the same reactor (-am). Jib writes the OCI archive only (jib:buildTar works
# offline, where jib:build refuses to); skopeo pushes it with its digests kept to IMAGE_REGISTRY or the loopback
# registry, and the pushed manifest is compared with the archive's. Everything cached under
# $VARROA_CACHE/images/{jenkins-standin,images/jenkins-standin}; a lock keeps two runs from building at once.
#
# usage: test-fixtures/images/jenkins-standin.sh          build and push; prints the pushed reference
#        test-fixtures/images/jenkins-standin.sh --check  then unpack it and run it in a chroot as 1000:1000:
#                                                         --version, /login answers 200 with the stand-in header,
#                                                         sh + curl work, jenkins-plugin-cli writes the plugins
# Environment: IMAGE_REGISTRY, IMAGE_REGISTRY_INSECURE, VARROA_CACHE, SOURCE_DATE_EPOCH, MVN (as bin/images/build.sh;
# MVN="mvn -o -B -ntp" builds offline from a warm ~/.m2).
set -euo pipefail
repo_root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=bin/images/common.sh
source "$repo_root/bin/images/common.sh"

check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  *) die "usage: test-fixtures/images/jenkins-standin.sh [--check]" ;;
esac
for tool in mvn skopeo umoci jq dpkg dpkg-deb apt-get apt-cache ldd flock tar sha256sum; do need "$tool"; done

name=jenkins-standin
module=test-fixtures/jenkins-standin
artifact=varroa-jenkins-standin
main=dev.varroa.testfixtures.jenkins.standin.JenkinsStandInMain
plugin_cli_main=dev.varroa.testfixtures.jenkins.standin.JenkinsPluginCliStandIn
# JenkinsPodSecurity.JENKINS_UID / JENKINS_GID; PodVolumes.JENKINS_HOME
jenkins_uid=1000
jenkins_gid=1000
jenkins_home=/var/jenkins_home
tag=$(image_tag)
work_root="$images_cache/jenkins-standin"
out="$images_cache/images/$name"
mkdir -p "$work_root/debs" "$out"
exec 9> "$work_root/build.lock"
flock 9 || die "cannot lock $work_root/build.lock"
work=
trap '[[ -z $work ]] || rm -rf "$work"' EXIT

# --- the Debian parts: busybox-static, curl and the packages of every library curl links ---------------------
command -v curl > /dev/null || die "curl is missing on this machine: its libraries are found by ldd of /usr/bin/curl (apt-get install curl)"
curl_packages=$(ldd "$(command -v curl)" | awk '/=> \// { print $3 }' | while read -r lib; do owning_package "$lib"; done | sort -u)
# libc6 and zlib1g are in the base already; busybox-static gives sh
packages=$(printf '%s\n' busybox-static curl $curl_packages | grep -vx -e libc6 -e zlib1g | sort -u)

# awk reads to the end: an early exit could kill apt-cache with SIGPIPE, which pipefail would report
candidate_version() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ && !seen { print $2; seen = 1 }'; }
declare -A deb_of
for package in $packages; do
  version=$(candidate_version "$package")
  if [[ -z $version || $version == "(none)" ]]; then
    [[ $(id -u) -eq 0 ]] || die "Debian package $package is not in this machine's package lists and only root can run 'apt-get update'"
    apt-get update -qq || die "apt-get update failed"
    version=$(candidate_version "$package")
    [[ -n $version && $version != "(none)" ]] || die "Debian package $package has no installable version on this machine"
  fi
  deb="$work_root/debs/${package}_${version//:/%3a}.deb"
  if [[ ! -f $deb ]]; then
    say "download $package $version"
    fetch=$(mktemp -d "$work_root/debs/.fetch-XXXXXX")
    # as the caller: apt's _apt sandbox user cannot enter a cache under /root
    (cd "$fetch" && apt-get download -qq -o APT::Sandbox::User="$(id -un)" "$package=$version") || { rm -rf "$fetch"; die "apt-get download $package=$version failed"; }
    mv "$fetch"/*.deb "$deb"
    rm -rf "$fetch"
  fi
  deb_of[$package]=$deb
done

# --- the stand-in base: the standard base plus one layer (Debian parts, jenkins user, tool wrapper) -----------
base=$("$repo_root/bin/images/base.sh" standard < /dev/null)
key=$( {
  cat "$base/digest"; echo "$SOURCE_DATE_EPOCH $jenkins_uid $jenkins_gid"
  for package in $packages; do sha256sum "${deb_of[$package]}" | cut -c1-64; done
  cat "$0"
} | short_hash)
standin_base="$work_root/base-$key"
if [[ ! -f $standin_base/.complete ]]; then
  say "assemble the stand-in base ($key) on $(cat "$base/name"): $(echo $packages)"
  work=$(mktemp -d "$work_root/.staging-XXXXXX")
  root="$work/layer"
  mkdir -p "$root"
  for package in $packages; do dpkg-deb -x "${deb_of[$package]}" "$root"; done
  rm -rf "$root"/usr/share/{doc,man,info,lintian,bug,zsh,bash-completion} "$root/etc/ld.so.conf.d"
  # busybox's applets as links in /bin, sh first; wget crashes on this machine family, curl does its work
  busybox="$root/bin/busybox"
  [[ -x $busybox ]] || die "busybox-static did not give /bin/busybox"
  for applet in $("$busybox" --list); do
    [[ $applet == busybox || $applet == wget || -e $root/bin/$applet || -e $root/usr/bin/$applet ]] && continue
    ln -s busybox "$root/bin/$applet"
  done
  [[ -L $root/bin/sh ]] || die "busybox has no sh applet"
  mkdir -p "$root/usr/local/bin" "$root/etc" "$root$jenkins_home"
  cat > "$root/usr/local/bin/jenkins-plugin-cli" <<EOF
#!/bin/sh
# The Varroa Jenkins stand-in's jenkins-plugin-cli (not Jenkins' tool): the options the plugins init container passes.
exec /opt/java/openjdk/bin/java -cp @/app/jib-classpath-file $plugin_cli_main "\$@"
EOF
  chmod 755 "$root/usr/local/bin/jenkins-plugin-cli"
  # the base's users plus jenkins, as the official Jenkins image has it
  cat > "$root/etc/passwd" <<EOF
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
jenkins:x:$jenkins_uid:$jenkins_gid:Jenkins stand-in:$jenkins_home:/bin/sh
EOF
  cat > "$root/etc/group" <<EOF
root:x:0:
nonroot:x:65532:
jenkins:x:$jenkins_gid:
EOF
  find "$root" ! -type l -exec chmod u+rwX,go+rX,go-w,-s {} +
  tar_options=(--sort=name --format=posix --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime
    "--mtime=@$SOURCE_DATE_EPOCH" --numeric-owner --no-acls --no-xattrs --no-selinux)
  (cd "$root" && tar -c -f "$work/layer.tar" "${tar_options[@]}" --owner=0 --group=0 --exclude="${jenkins_home#/}" $(ls -A))
  (cd "$root" && tar -r -f "$work/layer.tar" "${tar_options[@]}" --owner=$jenkins_uid --group=$jenkins_gid "${jenkins_home#/}")
  created=$(source_date)
  cp -a "$base/oci" "$work/oci"
  umoci raw add-layer --image "$work/oci:base" --tag standin --history.created "$created" --history.author Varroa \
    --history.created_by "test-fixtures/images/jenkins-standin.sh: $(echo $packages), user jenkins $jenkins_uid, jenkins-plugin-cli" \
    "$work/layer.tar"
  umoci config --image "$work/oci:standin" --no-history --created "$created" --author Varroa \
    --config.user "$jenkins_uid:$jenkins_gid" --config.workingdir "$jenkins_home" \
    --config.env "PATH=/opt/java/openjdk/bin:/usr/local/bin:/usr/bin:/bin" \
    --config.label "org.opencontainers.image.title=varroa-test-jenkins-standin-base"
  umoci gc --layout "$work/oci"
  skopeo --insecure-policy copy --quiet "oci:$work/oci:standin" "docker-archive:$work/base.tar:varroa-test/jenkins-standin-base:$key"
  rm -rf "$root" "$work/layer.tar"
  touch "$work/.complete"
  rm -rf "$standin_base"
  mv "$work" "$standin_base"
  work=
  find "$work_root" -mindepth 1 -maxdepth 1 -name 'base-*' ! -name "base-$key" -exec rm -rf {} +
fi

# --- the image: Jib on the stand-in base, the module's fresh jars from this reactor ---------------------------
if [[ -n ${IMAGE_REGISTRY:-} ]]; then
  registry=${IMAGE_REGISTRY%/}
  insecure=${IMAGE_REGISTRY_INSECURE:-false}
else
  # 9>&-: the registry outlives this script and must not hold its lock
  registry=$("$repo_root/bin/images/registry.sh" start 9>&-)
  insecure=true
fi
skopeo_tls=()
[[ $insecure == true ]] && skopeo_tls=(--tls-verify=false)
image="$registry/varroa-test/jenkins:$tag"
rm -rf "$out"
mkdir -p "$out"
say "jib $image (module $module, main $main, base $standin_base)"
mapfile -t properties < <(jib_properties "$name" "$module" "$main" "$standin_base/base.tar" "$image")
maven -q -pl "$module" -am -Dmaven.test.skip=true package "$jib_plugin:buildTar" "${properties[@]}" \
  "-Djib.containerize=:$artifact" \
  "-Djib.container.user=$jenkins_uid:$jenkins_gid" "-Djib.container.workingDirectory=$jenkins_home" \
  "-Djib.container.labels=org.opencontainers.image.title=varroa-test-jenkins,org.opencontainers.image.version=$tag,org.opencontainers.image.description=Jenkins stand-in for tests (NOT Jenkins)" \
  "-Djib.outputPaths.tar=$out/image.tar" "-Djib.outputPaths.digest=$out/jib-digest" \
  "-Djib.baseImageCache=$images_cache/jib/base" "-Djib.applicationCache=$images_cache/jib/application/$name" \
  || die "jib failed for $image; see Maven's messages above"
skopeo --insecure-policy copy --quiet --preserve-digests "${skopeo_tls[@]/--tls-verify/--dest-tls-verify}" \
  "oci-archive:$out/image.tar" "docker://$image" < /dev/null || die "skopeo could not push $out/image.tar to $image"
pushed=$(skopeo inspect "${skopeo_tls[@]}" --raw "docker://$image" < /dev/null | sha256sum | cut -d' ' -f1) \
  || die "cannot read back $image from $registry"
built=$(cut -d: -f2 < "$out/jib-digest")
[[ $pushed == "$built" ]] \
  || die "$name: the pushed manifest (sha256:$pushed) differs from the one Jib wrote to $out/image.tar (sha256:$built)"
skopeo --insecure-policy copy --quiet "oci-archive:$out/image.tar" "oci:$out/oci:$tag" < /dev/null
echo "sha256:$built" > "$out/digest"
echo "$image" > "$out/pushed"
say "$name pushed: $image@sha256:$built"

if [[ $check == true ]]; then
  "$(dirname "$0")/jenkins-standin-check.sh" "$out/oci:$tag" 9>&-
fi
echo "$image"
