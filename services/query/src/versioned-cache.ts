import { type RawBuilder, sql } from 'kysely';

/**
 * Values derived from a projection's tables, kept per key until that projection moves on:
 * list counts (`totalItems`; a city's sales count walked ~11,000 index entries on every page of
 * the large seed, a third of the list's cost) and the custom field names every transaction
 * list shows (a round trip of its own on every page).
 *
 * A projection changes its tables and its checkpoint in one transaction, so its checkpoint's
 * position and time (a rebuild's swap sets both) name one state of its tables: the page query
 * reads that version in the same snapshot as its rows, and a value remembered at the same
 * version was computed from the same tables.
 */
export class VersionedCache<T> {
  readonly #entries = new Map<string, { version: string; value: T }>();

  constructor(private readonly maxEntries = 1000) {}

  /** The version column to add to a page query (and to the query computing the value). */
  static version(projection: string): RawBuilder<string> {
    return sql<string>`(SELECT position::text || ' ' || updated_at::text FROM projection_checkpoints WHERE name = ${projection})`;
  }

  /**
   * The value for `key` at `version` (read with the page's rows; undefined when the page was
   * empty), computed again when it is not known at that version.
   */
  async get(
    key: string,
    version: string | null | undefined,
    compute: () => Promise<{ value: T; version: string | null }>,
  ): Promise<T> {
    const known = this.#entries.get(key);
    if (version && known && known.version === version) return known.value;
    const fresh = await compute();
    if (fresh.version) {
      if (this.#entries.size >= this.maxEntries) this.#entries.clear();
      this.#entries.set(key, { version: fresh.version, value: fresh.value });
    }
    return fresh.value;
  }
}
