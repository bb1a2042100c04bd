#!/bin/bash
# Builds a sample artifact: ./make-artifact.sh OUT_DIR ID  ->  OUT_DIR/ID.tar.gz
set -euo pipefail
out=$1 id=$2
work=$(mktemp -d)
mkdir -p "$work/bin" "$work/config" "$work/public/user uploads"
echo "$id" > "$work/VERSION"
echo "placeholder, replaced by the shared file" > "$work/config/app.env"
cat > "$work/bin/healthcheck" <<'SH'
#!/bin/sh
# run from the release directory: the shared configuration must be reachable and say ok
grep -q '^STATUS=ok$' config/app.env && test -f VERSION
SH
chmod +x "$work/bin/healthcheck"
tar -czf "$out/$id.tar.gz" -C "$work" .
rm -rf "$work"
