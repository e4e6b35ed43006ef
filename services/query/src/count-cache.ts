import { type RawBuilder, sql } from 'kysely';

/**
 * Exact row counts for list pages (`totalItems`), kept per filter until the projection that
 * writes the table moves on. A city's sales count walked ~11,000 index entries on every page
 * of the large seed, a third of the list's cost; the page itself is an index walk of 15 rows.
 *
 * A projection changes its tables and its checkpoint in one transaction, so its checkpoint's
 * position and time (a rebuild's swap sets both) name one state of its tables: the page query
 * reads that version in the same snapshot as its rows, and a count remembered at the same
 * version is the count of those rows' table.
 */
export class CountCache {
  readonly #entries = new Map<string, { version: string; count: number }>();

  constructor(private readonly maxEntries = 1000) {}

  /** The version column to add to a page query (and to the count query). */
  static version(projection: string): RawBuilder<string> {
    return sql<string>`(SELECT position::text || ' ' || updated_at::text FROM projection_checkpoints WHERE name = ${projection})`;
  }

  /**
   * The count for `key` at `version` (from the page's rows; undefined when the page was
   * empty), counting again when it is not known at that version.
   */
  async count(
    key: string,
    version: string | null | undefined,
    countNow: () => Promise<{ count: number; version: string | null }>,
  ): Promise<number> {
    const known = this.#entries.get(key);
    if (version && known && known.version === version) return known.count;
    const fresh = await countNow();
    if (fresh.version) {
      if (this.#entries.size >= this.maxEntries) this.#entries.clear();
      this.#entries.set(key, { version: fresh.version, count: fresh.count });
    }
    return fresh.count;
  }
}
