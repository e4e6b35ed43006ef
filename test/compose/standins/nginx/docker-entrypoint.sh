#!/bin/sh
# The official image's 20-envsubst-on-templates.sh: each /etc/nginx/templates/NAME.template
# becomes /etc/nginx/conf.d/NAME with only the defined environment variables substituted.
set -eu
defined=$(env | cut -d= -f1 | sed 's/.*/${&}/' | tr '\n' ' ')
for template in /etc/nginx/templates/*.template; do
  [ -f "$template" ] || continue
  out="/etc/nginx/conf.d/$(basename "$template" .template)"
  envsubst "$defined" < "$template" > "$out"
  echo "$0: rendered $template to $out"
done
exec "$@"
