/**
 * The writer lane of one database: its one lock-guarded state ({@code LaneState}: admission into
 * a bounded queue, the run state that says who runs each turn, the lifecycle and poisoning, the
 * pinned interactive transaction, the cork's phase), the turns run by the holder on one
 * connection opened on demand ({@code LaneTurn}), the one transaction protocol ({@code
 * LaneTransaction}) that group commit, the pinned transaction, the cork and maintenance share,
 * and write telemetry.
 *
 * <p>Depends on file, guard, notify, scheduler, sql, sqlite, telemetry and util.
 */
package dev.lanes.internal.writer;
