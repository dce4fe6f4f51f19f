/**
 * What Lanes keeps of a database file besides its connections: the lease (an OS lock beside it),
 * the file's identity, the disk reserve, the background checkpointer, backups, and the canonical
 * path.
 *
 * <p>Depends on scheduler, sqlite, telemetry and util.
 */
package dev.lanes.internal.file;
