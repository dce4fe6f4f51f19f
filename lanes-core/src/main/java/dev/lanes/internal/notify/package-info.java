/**
 * Change notifications and transaction-state listeners, delivered on the runtime's notification
 * thread, never a writer's.
 *
 * <p>Depends on telemetry and util.
 */
package dev.lanes.internal.notify;
