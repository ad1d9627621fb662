#!/bin/sh
# Installs Debian's jars that openapi-generator's Java client (native) compiles against in
# tests/contract/test_openapi_generator_java.py: jackson (core, databind, annotations), JSR-305's
# @Nonnull/@Nullable and javax.annotation.Generated. No Maven repository is reachable here. Idempotent:
# does nothing when the jars are there. Needs root (apt-get). The JDK itself (javac) must be on the machine.
set -eu

JARS="jackson-core jackson-databind jackson-annotations jsr305 geronimo-annotation-1.3-spec"
PACKAGES="libjackson2-core-java libjackson2-databind-java libjackson2-annotations-java libjsr305-java libgeronimo-annotation-1.3-spec-java"

missing=""
for jar in $JARS; do
    [ -f "/usr/share/java/$jar.jar" ] || missing="$missing $jar"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install_java_client_deps.sh: missing /usr/share/java/{$missing }.jar; as root: apt-get install -y $PACKAGES" >&2
    exit 1
fi
echo "install_java_client_deps.sh: installing $PACKAGES for the Java client's tests" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -q || ! apt-get install -y -q $PACKAGES; then
    echo "install_java_client_deps.sh: apt-get could not install them (see above)." >&2
    exit 1
fi
