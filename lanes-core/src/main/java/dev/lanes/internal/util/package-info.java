/**
 * Primitives every package may use: the runtime's clock and timer, thread facts, how failures
 * reach callers, and the concept-named loggers.
 *
 * <p>Depends on the public exceptions only.
 */
package dev.lanes.internal.util;
