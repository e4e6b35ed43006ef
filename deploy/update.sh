#!/bin/sh
# Bahi: a rolling update of the docker-compose deployment, with no request refused on the way
# (README.md, "Distributed", "Updating"). Run from the directory holding docker-compose.yml and
# .env, instead of a second `docker-compose up --build`: compose v1 stops every copy of a service
# before it starts the new ones, and until a new copy listens the gateway has nowhere to send a
# request (502).
#
#   sh deploy/update.sh                      (or npm run deploy)
#   sh deploy/update.sh -p myproject -f docker-compose.yml -f other.yml   (compose's own options)
#
# What it does: builds the image, then for command, query, the projector and the reports worker
# in turn starts as many new copies as are running, waits until each new copy is healthy, then
# stops the old copies (SIGTERM: each finishes what it has in flight and exits 0) and removes
# them. The gateway finds the new copies through Docker's DNS within a second and skips a
# stopping one (deploy/gateway/README.md). Then the one-shot `frontends` step copies the new
# frontends into the gateway's volume. Postgres, Redis and the gateway are left as they run.
# Nothing running yet: it is the first `up` (two copies of command and query).
set -eu

compose() { docker-compose "$@"; }
# Compose's own options (-p, -f, ...) come first on every call.
OPTS="$*"

running() { compose $OPTS ps -q "$1" | while read -r id; do
  [ "$(docker inspect -f '{{.State.Running}}' "$id")" = true ] && echo "$id"; done; }

say() { printf 'update: %s\n' "$*"; }

compose $OPTS build

if [ -z "$(running command)" ]; then
  say "nothing running: first start, two copies of command and query"
  compose $OPTS up -d --scale command=2 --scale query=2
  exit 0
fi

for service in command query projector reports-worker; do
  old=$(running "$service")
  count=$(printf '%s\n' "$old" | grep -c . || true)
  [ "$count" -gt 0 ] || count=1
  say "$service: $count running; starting $count new"
  all=$(compose $OPTS ps -q "$service" | wc -l)
  compose $OPTS up -d --no-deps --no-recreate --scale "$service=$((all + count))" "$service"
  new=$(running "$service" | grep -v -x -F "$old" || true)
  # Healthy: the healthcheck of docker-compose.yml answered (at most 3 minutes).
  waited=0
  for id in $new; do
    until [ "$(docker inspect -f '{{.State.Health.Status}}' "$id")" = healthy ]; do
      if [ "$waited" -ge 180 ]; then
        say "$service: new copy $id not healthy after 180 s; the old copies keep running"
        docker logs --tail 40 "$id" >&2 || true
        exit 1
      fi
      sleep 1
      waited=$((waited + 1))
    done
  done
  say "$service: new copies healthy; stopping the old ones"
  if [ -n "$old" ]; then
    # shellcheck disable=SC2086
    docker stop $old >/dev/null
    # shellcheck disable=SC2086
    docker rm $old >/dev/null
  fi
  # Containers stopped earlier by hand (not running, so not among the old) are left alone.
done

say "frontends: copying the new build into the gateway's volume"
compose $OPTS up -d --no-deps frontends
say "done"
