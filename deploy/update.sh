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
# in turn creates as many new copies as are running, starts them, waits until each new copy is
# healthy, then stops the old copies (SIGTERM: each finishes what it has in flight and exits 0)
# and removes them. Then the one-shot `frontends` step copies the new frontends into the
# gateway's volume. Postgres, Redis and the gateway are left as they run.
#
# A new copy of command or query joins the name the gateway resolves only once it is healthy.
# The gateway finds the copies through Docker's DNS on the network(s) it is on (`edge` in
# docker-compose.yml), and a name there answers with every container connected under that
# alias, listening or not. So the new copies are created without being started
# (`up --no-start`: compose then connects a container to its first network, `default`, alone),
# taken off the gateway's network should compose have put them there, started with
# `docker start`, and connected to the gateway's network under the service's name
# (`docker network connect --alias`) after their healthcheck passes. The old copies leave the
# name when they stop; while they stop they refuse, and the gateway goes on to the next address
# (deploy/gateway/README.md, "Copies, re-resolution and retries").
# Nothing running yet: it is the first `up` (two copies of command and query).
set -eu

compose() { docker-compose "$@"; }
# Compose's own options (-p, -f, ...) come first on every call.
OPTS="$*"

running() { compose $OPTS ps -q "$1" | while read -r id; do
  [ "$(docker inspect -f '{{.State.Running}}' "$id")" = true ] && echo "$id"; done; }
networks_of() { docker inspect -f '{{range $name, $_ := .NetworkSettings.Networks}}{{$name}} {{end}}' "$1"; }
on_network() { case " $(networks_of "$1") " in *" $2 "*) return 0 ;; *) return 1 ;; esac; }

say() { printf 'update: %s\n' "$*"; }

compose $OPTS build

if [ -z "$(running command)" ]; then
  say "nothing running: first start, two copies of command and query"
  compose $OPTS up -d --scale command=2 --scale query=2
  exit 0
fi

# The networks on which the gateway resolves command and query.
gateway=$(running gateway | head -n 1)
edge=""
[ -z "$gateway" ] || edge=$(networks_of "$gateway")
say "the gateway resolves the services on: ${edge:-(no gateway running)}"

for service in command query projector reports-worker; do
  old=$(running "$service")
  count=$(printf '%s\n' "$old" | grep -c . || true)
  [ "$count" -gt 0 ] || count=1
  say "$service: $count running; starting $count new"
  before=$(compose $OPTS ps -q "$service")
  all=$(printf '%s\n' "$before" | grep -c . || true)
  compose $OPTS up --no-start --no-deps --no-recreate --scale "$service=$((all + count))" "$service"
  if [ -n "$before" ]; then
    new=$(compose $OPTS ps -q "$service" | grep -v -x -F "$before" || true)
  else
    new=$(compose $OPTS ps -q "$service")
  fi
  # Only the services the gateway reaches wait outside its network(s) until healthy; a copy on
  # no other network (a deployment from before `edge`, the gateway on `default`) cannot, and is
  # named as soon as it starts, as before.
  public=""
  case "$service" in command | query) public=$edge ;; esac
  held=""
  for id in $new; do
    others=$(for network in $(networks_of "$id"); do
      case " $public " in *" $network "*) ;; *) echo "$network" ;; esac; done)
    if [ -n "$public" ] && [ -n "$others" ]; then
      for network in $public; do
        if on_network "$id" "$network"; then docker network disconnect "$network" "$id"; fi
        held="$held $id:$network"
      done
    fi
    docker start "$id" >/dev/null
  done
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
  for pair in $held; do
    id=${pair%%:*}
    network=${pair#*:}
    # The aliases compose itself gives a copy: the service's name and the short id.
    docker network connect --alias "$service" --alias "$(printf '%.12s' "$id")" "$network" "$id"
    say "$service: new copy $(printf '%.12s' "$id") healthy, now named $service on $network"
  done
  # The gateway keeps a DNS answer for a second (`resolver ... valid=1s`): until it asks again
  # it knows the old copies alone, and stopping them now would leave it nobody to send to.
  [ -z "$held" ] || sleep 3
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
