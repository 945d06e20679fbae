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
