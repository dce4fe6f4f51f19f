/**
 * The implementation of Lanes, cut by feature into the packages below; nothing here is API, and
 * the module exports none of it. ARCHITECTURE.md draws the map and the path of one write and one
 * read.
 *
 * <p>The layering is pinned by {@code ArchitectureTest}: engine above jdbc, above writer and reader,
 * above file, guard, telemetry, notify and scheduler, above sql, types and sqlite, above util; no
 * cycles.
 */
package dev.lanes.internal;
