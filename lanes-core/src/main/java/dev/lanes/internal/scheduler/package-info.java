/**
 * The one bounded pool of platform threads a runtime shares between its databases, the run-state
 * machine of a serial queue on it, and the connection budget with its eviction order.
 *
 * <p>Depends on util.
 */
package dev.lanes.internal.scheduler;
