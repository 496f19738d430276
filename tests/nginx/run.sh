#!/usr/bin/env bash
# `npm run test:nginx`: serves the built apps (`npm run build` first) with
# Debian's nginx and the configuration `npm run nginx:config` generates, on
# loopback ports 9300-9303 (the Node servers it proxies the page to on
# 9310-9314 and 9315-9319, each its four ports and its control API; the
# section teams' static hosts the specs start on 9320-9321), and runs the
# browser tests in tests/nginx/ against it. Every port is derived from
# PORTICO_NGINX_PORT (9300). It installs nothing: .ci/run installs nginx and
# its brotli_static module (and PostgreSQL, which the walk's two servers share).
set -euo pipefail
cd "$(dirname "$0")/../.."

nginx_bin="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
if [ ! -x "$nginx_bin" ]; then
  echo "test:nginx needs nginx (Debian: apt-get install nginx libnginx-mod-http-brotli-static)" >&2
  exit 1
fi
# The host's build is its page; a remote's is the manifest the host loads.
for built in host/dist/index.html remote-home/dist/mf-manifest.json remote-about/dist/mf-manifest.json remote-contact/dist/mf-manifest.json; do
  if [ ! -f "$built" ]; then
    echo "test:nginx: no build in $(dirname "$built"): run npm run build first" >&2
    exit 1
  fi
done

port="${PORTICO_NGINX_PORT:-9300}"
work="$(mktemp -d "${TMPDIR:-/tmp}/portico-nginx-XXXXXX")"
chmod 755 "$work"
nginx_pid=""
cleanup() {
  if [ -n "$nginx_pid" ]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# config.json as an operator would place it beside nginx. nginx's static page
# (and its fallback when no Node server answers) is rendered in the browser,
# so its operator grants Home and About script: static by default, they would
# show their alert there (docs/nginx.md).
cat > "$work/config.json" <<JSON
{
  "comName": "Portico Credit",
  "email": "support@portico.example",
  "address": "12 MG Road, Bengaluru 560001, India",
  "copyright": "© 2026 Portico Credit. All rights reserved.",
  "remotes": {
    "home": "http://127.0.0.1:$((port + 1))/mf-manifest.json",
    "about": "http://127.0.0.1:$((port + 2))/mf-manifest.json",
    "contact": "http://127.0.0.1:$((port + 3))/mf-manifest.json"
  },
  "allowedRemoteOrigins": ["https://staging.portico.example"],
  "sections": { "home": { "interactive": true }, "about": { "interactive": true } }
}
JSON
chmod 644 "$work/config.json"

# The page is proxied to `npm run serve`, which the specs start (and stop) on
# the upstream ports: ssr-proxy.spec.ts one server, new-team-walk.spec.ts two
# on one database. nginx skips an upstream that does not answer.
upstream_port=$((port + 10))
second_upstream_port=$((port + 15))
npm run --silent nginx:config -- --config "$work/config.json" --out "$work/nginx.conf" \
  --port "$port" --host 127.0.0.1 --prefix "$work" --upstream "127.0.0.1:$upstream_port" --upstream "127.0.0.1:$second_upstream_port"
"$nginx_bin" -t -q -e "$work/error.log" -c "$work/nginx.conf" -p "$work"
# Started by root, nginx's workers would run as nobody, who may not be allowed
# into the folder the repository was checked out in (a home folder).
as_user=""
if [ "$(id -u)" -eq 0 ]; then as_user="user root;"; fi
"$nginx_bin" -e "$work/error.log" -c "$work/nginx.conf" -p "$work" -g "daemon off; $as_user" &
nginx_pid=$!

for _ in $(seq 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$((port + 3))") 2>/dev/null; then break; fi
  if ! kill -0 "$nginx_pid" 2>/dev/null; then
    echo "nginx stopped:" >&2
    cat "$work/error.log" >&2
    exit 1
  fi
  sleep 0.2
done

PORTICO_NGINX_URL="http://127.0.0.1:$port" PORTICO_NGINX_CONFIG="$work/config.json" \
  PORTICO_NGINX_UPSTREAM_PORT="$upstream_port" PORTICO_NGINX_SECOND_UPSTREAM_PORT="$second_upstream_port" \
  npx playwright test -c tests/nginx/playwright.config.ts "$@"
