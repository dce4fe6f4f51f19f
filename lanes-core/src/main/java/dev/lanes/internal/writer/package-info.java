/**
 * The writer lane of one database: admission into a bounded queue, turns run one at a time on one
 * connection, group commit with its isolation and replay rules, the pinned interactive
 * transaction, the cork, the lane's lifecycle and poisoning, and write telemetry.
 *
 * <p>Depends on file, guard, notify, scheduler, sql, sqlite, telemetry and util.
 */
package dev.lanes.internal.writer;
