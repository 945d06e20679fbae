# Sourced by the image scripts: where things are cached, the two tables, the release, messages.
# Everything downloaded or built lives under ${VARROA_CACHE:-~/.cache/varroa}/images, never in the repository.

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
images_dir="$repo_root/bin/images"
images_cache="${VARROA_CACHE:-$HOME/.cache/varroa}/images"
# The time written into the base image (file times, config and history): a constant unless the caller sets one,
# so the same inputs give the same digests. Jib writes 1970-01-01T00:00:00Z into the images by default as well.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-0}"
export LC_ALL=C

say() { echo "images: $*" >&2; }
die() { echo "images: error: $*" >&2; exit 1; }

need() {
  command -v "$1" >/dev/null || die "$1 is missing: run 'make deps' (test-fixtures/install-deps.sh installs it)"
}

# ISO-8601 form of SOURCE_DATE_EPOCH, for umoci and Jib.
source_date() { date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ; }

# The parent POM's own version, e.g. 0.1.0-SNAPSHOT.
project_version() {
  local version
  version=$(awk '/<artifactId>varroa-parent<\/artifactId>/ { found = 1; next }
                 found && /<version>/ { sub(/.*<version>/, ""); sub(/<\/version>.*/, ""); print; exit }' "$repo_root/pom.xml")
  [[ -n $version ]] || die "cannot read the project version from $repo_root/pom.xml"
  echo "$version"
}

# The images' tag: the project version without -SNAPSHOT (what `--version` prints too).
image_tag() { local version; version=$(project_version); echo "${version%-SNAPSHOT}"; }

# The rows of images.tsv (name module main runtime), comments and blank lines left out;
# IMAGES="a b" keeps only those names.
image_rows() {
  local name module main runtime extra wanted
  while read -r name module main runtime extra; do
    [[ -z $name || $name == \#* ]] && continue
    [[ -n $runtime && -z $extra ]] || die "images.tsv: the line for '$name' needs 4 columns: name module main-class runtime"
    if [[ -n ${IMAGES:-} ]]; then
      wanted=" ${IMAGES//,/ } "
      [[ $wanted == *" $name "* ]] || continue
    fi
    echo "$name $module $main $runtime"
  done < "$images_dir/images.tsv"
}

# The rows of images.tsv whose module exists; the others are named on stderr.
buildable_image_rows() {
  local name module main runtime
  while read -r name module main runtime; do
    if [[ ! -f $repo_root/$module/pom.xml ]]; then
      say "$name skipped: its module $module/ does not exist yet (images.tsv)"
      continue
    fi
    echo "$name $module $main $runtime"
  done < <(image_rows)
}

# The jlink modules of a runtime (comma-separated), or its optional modules with "optional".
runtime_field() {
  local wanted=$1 field=${2:-modules} name modules optional extra
  while read -r name modules optional extra; do
    [[ -z $name || $name == \#* ]] && continue
    if [[ $name == "$wanted" ]]; then
      [[ -n $optional && -z $extra ]] || die "runtimes.tsv: the line for '$name' needs 3 columns: name modules optional"
      if [[ $field == optional ]]; then echo "${optional#-}"; else echo "$modules"; fi
      return 0
    fi
  done < "$images_dir/runtimes.tsv"
  die "runtime '$wanted' is not in bin/images/runtimes.tsv (images.tsv names it)"
}

# The JDK that jlink belongs to; it must be Java 17, the release the reactor compiles for.
jdk_home() {
  need jlink
  local home
  home=$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")
  grep -q '^JAVA_VERSION="17' "$home/release" 2>/dev/null \
    || die "jlink at $home is not Java 17 ($(grep '^JAVA_VERSION=' "$home/release" 2>/dev/null || echo 'no release file')): put a JDK 17 first on PATH"
  [[ -d $home/jmods ]] || die "$home has no jmods/ folder: jlink needs the JDK's jmods (Debian: openjdk-17-jmods)"
  echo "$home"
}

# How a module's siblings are taken: built again in the same reactor (-am), or, after a `mvn install` of this very
# tree (make test does one just before), from ~/.m2, which spares every image a rebuild of its upstream modules.
# Prints the Maven flags, none or -am; read them with read -r -a.
reactor_scope() {
  [[ ${IMAGES_FROM_INSTALLED:-false} == true ]] || echo "-am"
}

# sha256 of stdin, first 16 hex digits: the cache keys.
short_hash() { sha256sum | cut -c1-16; }

# Maven in the repository, batch mode, stdin closed; Debian's Maven 3.8 prints colour resets even when quiet.
maven() {
  local -a command
  read -r -a command <<< "${MVN:-mvn -B -ntp}"
  (cd "$repo_root" && "${command[@]}" "$@" < /dev/null) | sed -u 's/\x1b\[0m//g'
}

# The Jib properties of one image, one a line, the same for make images and the check's rebuild (a difference
# would change the digest): image name, module, main class, base docker-archive, target image reference.
jib_properties() {
  local name=$1 module=$2 main=$3 base_tar=$4 target=$5
  printf '%s\n' \
    "-Djib.containerize=$module" \
    "-Djib.from.image=tar://$base_tar" \
    "-Djib.to.image=$target" \
    "-Djib.container.mainClass=$main" \
    "-Djib.container.entrypoint=/opt/java/openjdk/bin/java,-cp,@/app/jib-classpath-file,$main" \
    "-Djib.container.labels=org.opencontainers.image.title=varroa-$name,org.opencontainers.image.version=$(image_tag)" \
    "-Djib.container.creationTime=$(source_date)" \
    -Djib.disableUpdateChecks=true \
    -Djib.console=plain
}
jib_plugin=com.google.cloud.tools:jib-maven-plugin

# --- Debian packages, ELF linkage and reproducible layers: base.sh and test-fixtures/images/build.sh ------------

# The C libraries from outside a folder that its ELF files link against; dies on one nowhere to be found.
linked_libraries() {
  local file line
  while IFS= read -r -d '' file; do
    [[ $(head -c4 "$file" | od -An -c | tr -d ' ') == 177ELF ]] || continue
    while read -r line; do
      case $line in
        *"=> not found"*)
          [[ -n $(find "$1" -name "${line%% *}" -print -quit) ]] || die "$file needs ${line%% *}, which is not on this machine" ;;
        *"=> /"*)
          line=${line#*=> }
          line=$(readlink -f "${line%% (*}")
          [[ $line == "$(readlink -f "$1")"/* ]] || echo "$line" ;;   # the folder's own libraries stay out
      esac
    done < <(ldd "$file" 2>/dev/null || true)
  done < <(find "$1" -type f -print0) | sort -u
}

# The Debian package owning a file; the merged /usr means dpkg may know it under the other spelling.
owning_package() {
  local candidate owner
  for candidate in "$1" "$(readlink -f "$1")" "${1#/usr}" "/usr$1"; do
    owner=$(dpkg -S "$candidate" 2>/dev/null | awk -F: '!/^diversion/ && !seen { print $1; seen = 1 }') || true
    [[ -n $owner ]] && { echo "$owner"; return 0; }
  done
  die "no Debian package owns $1, which an image's program links: install it with apt-get"
}

# awk reads to the end: an early exit could kill apt-cache with SIGPIPE, which pipefail would report
candidate_version() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ && !seen { print $2; seen = 1 }'; }

update_package_lists() {
  [[ $(id -u) -eq 0 ]] || die "Debian's package lists here are stale and only root can update them: run 'apt-get update'"
  say "apt-get update (a package is missing from this machine's lists)"
  apt-get update -qq || die "apt-get update failed"
}

# The .deb of this machine's candidate version of a package, downloaded once into $images_cache/debs; prints its path.
debian_package() {
  local package=$1 version deb fetch
  version=$(candidate_version "$package")
  if [[ -z $version || $version == "(none)" ]]; then
    update_package_lists
    version=$(candidate_version "$package")
    [[ -n $version && $version != "(none)" ]] || die "Debian package $package has no installable version on this machine"
  fi
  deb="$images_cache/debs/${package}_${version//:/%3a}.deb"
  if [[ ! -f $deb ]]; then
    say "download $package $version"
    mkdir -p "$images_cache/debs"
    fetch=$(mktemp -d "$images_cache/debs/.fetch-XXXXXX")
    chmod 755 "$fetch"   # apt downloads as its _apt user when it can
    if ! (cd "$fetch" && apt-get download -qq "$package=$version" 2>/dev/null); then
      update_package_lists
      (cd "$fetch" && apt-get download -qq "$package=$version") || { rm -rf "$fetch"; die "apt-get download $package=$version failed"; }
    fi
    mv "$fetch"/*.deb "$deb"
    rm -rf "$fetch"
  fi
  echo "$deb"
}

# Keeps the licences; drops what only a shell, ldconfig, iconv, a debugger or a person reading manuals would use.
# Dies unless its argument names an image's root folder: never empty and never the machine's own root, where
# "$root/etc/group" would overwrite this machine's /etc/group. Call it directly, not in $(...), so that it stops
# the script.
require_image_root() {
  local root=${1:-}
  if [[ -z $root || $(cd "$root" 2>/dev/null && pwd -P) == / ]]; then
    die "refusing to write an image's files into '$root' (not an image's root folder)"
  fi
}

trim_debian_tree() {
  require_image_root "${1:-}"
  local root=$1
  if [[ -d $root/usr/share/doc ]]; then
    find "$root/usr/share/doc" -mindepth 2 ! -type d ! -name copyright -delete
    find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
  fi
  rm -rf "$root"/usr/share/{man,info,lintian,locale,gdb,gcc,bug} "$root"/usr/lib/*-linux-gnu/gconv "$root/etc/ld.so.conf.d"
}

# /etc/passwd, group and nsswitch.conf with root and user 65532 "nonroot", and the folders they name.
write_nonroot_accounts() {
  require_image_root "${1:-}"
  local root=$1
  mkdir -p "$root/etc" "$root/home/nonroot" "$root/root" "$root/tmp"
  printf '%s\n' 'root:x:0:0:root:/root:/sbin/nologin' 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' \
    > "$root/etc/passwd"
  printf '%s\n' 'root:x:0:' 'nonroot:x:65532:' > "$root/etc/group"
  printf '%s\n' 'passwd: files' 'group: files' 'hosts: files dns' > "$root/etc/nsswitch.conf"
}

# Reproducible tars: entries sorted, one time, numeric owners, no atime/ctime/xattrs.
reproducible_tar_options=(--sort=name --format=posix --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime
  "--mtime=@$SOURCE_DATE_EPOCH" --numeric-owner --no-acls --no-xattrs --no-selinux)

# A reproducible layer of a folder: owned by root, but the paths given after the tar file (default home/nonroot),
# when there, owned by 65532 and last in the tar.
layer_tar() {
  require_image_root "${1:-}"
  local root=$1 tar_file=$2 path
  local -a owned=("${@:3}") excludes=()
  (( ${#owned[@]} )) || owned=(home/nonroot)
  for path in "${owned[@]}"; do excludes+=("--exclude=$path"); done
  (cd "$root" && tar -c -f "$tar_file" "${reproducible_tar_options[@]}" --owner=0 --group=0 --anchored "${excludes[@]}" $(ls -A))
  for path in "${owned[@]}"; do
    [[ -e $root/$path ]] || continue
    (cd "$root" && tar -r -f "$tar_file" "${reproducible_tar_options[@]}" --owner=65532 --group=65532 "$path")
  done
}

# Where images go: IMAGE_REGISTRY (TLS unless IMAGE_REGISTRY_INSECURE=true), else the loopback registry of
# registry.sh, started when needed (plain HTTP). Sets registry (host:port), insecure and skopeo_tls.
select_registry() {
  if [[ -n ${IMAGE_REGISTRY:-} ]]; then
    registry=${IMAGE_REGISTRY%/}
    insecure=${IMAGE_REGISTRY_INSECURE:-false}
  else
    registry=$("$images_dir/registry.sh" start)
    insecure=true
  fi
  skopeo_tls=()
  [[ $insecure == true ]] && skopeo_tls=(--tls-verify=false)
  return 0
}
