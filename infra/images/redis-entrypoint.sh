#!/bin/sh
# As the official image: redis-server runs as redis, in /data, with protected mode off unless the
# command says otherwise (a config file given first stays first).
set -eu
if [ "${1:-}" = redis-server ]; then
  shift
  if [ -n "${1:-}" ] && [ "${1#-}" = "$1" ]; then
    config="$1"
    shift
    set -- redis-server "$config" --protected-mode no "$@"
  else
    set -- redis-server --protected-mode no "$@"
  fi
  if [ "$(id -u)" = 0 ]; then
    chown -R redis:redis /data
    exec setpriv --reuid=redis --regid=redis --init-groups "$@"
  fi
fi
exec "$@"
