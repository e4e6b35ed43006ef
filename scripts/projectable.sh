#!/bin/sh
# The "every accepted command can be projected" property test (issue #16), longer than npm test
# runs it: COMMANDS random commands per storage (PGlite, and Postgres when DATABASE_URL is set),
# from SEED. Usage: scripts/projectable.sh [COMMANDS] [SEED]
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres scripts/projectable.sh 3000 42
set -e
cd "$(dirname "$0")/.."
BAHI_PROPERTY_COMMANDS="${1:-2000}" BAHI_PROPERTY_SEED="${2:-$(date +%s)}" \
  exec npx vitest run --project int services/standalone/src/projectable.property.int.test.ts
