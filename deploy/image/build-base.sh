#!/usr/bin/env bash
# Builds a Java 17 runtime base image from Debian packages alone — no container registry, no
# Docker daemon — as a docker-save tarball that Jib takes as its base:
#
#   deploy/image/build-base.sh target/base-image.tar
#   mvn -B -Pimage -DskipTests package -Dimage.base=tar://$PWD/target/base-image.tar
#
# Needs mmdebstrap and a Debian mirror; runs as root or, with user namespaces, as any user.
# SUITE (default bookworm) and MIRROR (default: mmdebstrap's) choose the packages.
set -euo pipefail

out="${1:-target/base-image.tar}"
suite="${SUITE:-bookworm}"
tag="${TAG:-mailrun-base:${suite}-jre17}"
arch="$(dpkg --print-architecture)"   # amd64 and arm64 are also the OCI names
command -v mmdebstrap >/dev/null || { echo "build-base: mmdebstrap is needed (apt-get install mmdebstrap)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Essential packages plus the headless JRE and CA certificates (STARTTLS to the relay, TLS to the
# database). Docs, man pages and translations are left out; openjdk's postinst registers a man
# page alternative, so its directory must exist. /dev is left to the container runtime.
mmdebstrap --variant=essential \
  --include=openjdk-17-jre-headless,ca-certificates \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --essential-hook='mkdir -p "$1/usr/share/man/man1"' \
  --skip=output/dev \
  "$suite" "$work/layer.tar" ${MIRROR:+"$MIRROR"}

# docker-save layout: one uncompressed layer, its config, and manifest.json naming both.
layer_id="$(sha256sum "$work/layer.tar" | cut -d' ' -f1)"
mkdir "$work/image" "$work/image/$layer_id"
mv "$work/layer.tar" "$work/image/$layer_id/layer.tar"
java_home="/usr/lib/jvm/java-17-openjdk-$arch"
cat > "$work/config.json" <<JSON
{"architecture":"$arch","os":"linux",
 "config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                  "JAVA_HOME=$java_home","LANG=C.UTF-8"]},
 "rootfs":{"type":"layers","diff_ids":["sha256:$layer_id"]},
 "history":[{"created_by":"mmdebstrap --variant=essential $suite + openjdk-17-jre-headless, ca-certificates"}]}
JSON
config_id="$(sha256sum "$work/config.json" | cut -d' ' -f1)"
mv "$work/config.json" "$work/image/$config_id.json"
printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["%s/layer.tar"]}]\n' \
  "$config_id" "$tag" "$layer_id" > "$work/image/manifest.json"

mkdir -p "$(dirname "$out")"
tar -C "$work/image" -cf "$out" manifest.json "$config_id.json" "$layer_id"
echo "build-base: wrote $out ($tag)" >&2
