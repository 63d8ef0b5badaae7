#!/bin/sh
# A stand-in for a service: 'restart' records a new generation and the config it read, 'status' prints it.
# It never stays running, so the demo leaves no process behind.
set -e
case "$1" in
  restart)
    root=$2
    mkdir -p "$root/run" "$root/data"
    generation=$(( $(cat "$root/run/generation" 2>/dev/null || echo 0) + 1 ))
    echo "$generation" > "$root/run/generation"
    grep '^port' "$root/etc/app.conf" > "$root/run/listening"
    echo "demo-service restarted (generation $generation, $(cat "$root/run/listening"))"
    ;;
  status)
    cat "$2/run/listening"
    ;;
  *)
    echo "usage: demo-service restart|status ROOT" >&2
    exit 2
    ;;
esac
