#!/usr/bin/env bash
# Installs Debian's PostgreSQL server when it is missing and creates the OS user the test fixture
# (dev.varroa.testfixtures.postgres) runs initdb and pg_ctl as: PostgreSQL refuses to run as root.
# Idempotent: with the package and the user present it does nothing.
set -euo pipefail

# The fixture's PostgresBinaries.OS_USER; change both together.
PG_USER="${VARROA_POSTGRES_OS_USER:-varroa-postgres}"

die() { echo "postgres/install.sh: $*" >&2; exit 1; }

sudo_cmd=(); [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)

if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "postgres/install.sh: installing the Debian package postgresql"
  "${sudo_cmd[@]}" apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends postgresql >/dev/null \
    || die "apt-get install postgresql failed"
fi
# The package's own cluster (started by its post-install on some systems) is not used: tests run their own.

if [[ $(id -u) -ne 0 ]]; then
  # A non-root JVM runs initdb and pg_ctl as itself; the dedicated user is only needed under root.
  echo "postgres/install.sh: not root, the fixture runs PostgreSQL as $(id -un)"
  exit 0
fi
if id -u "$PG_USER" >/dev/null 2>&1; then
  echo "postgres/install.sh: PostgreSQL $(ls /usr/lib/postgresql | sort -V | tail -1) and OS user $PG_USER already present"
  exit 0
fi
useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$PG_USER" \
  || id -u "$PG_USER" >/dev/null 2>&1 || die "could not create the OS user $PG_USER"
echo "postgres/install.sh: created OS user $PG_USER for the PostgreSQL test fixture"
