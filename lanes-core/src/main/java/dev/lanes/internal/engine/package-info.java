/**
 * The wiring of one runtime and its databases: the runtime ({@link
 * dev.lanes.internal.engine.LanesRuntime}) and its registry of open databases ({@link
 * dev.lanes.internal.engine.DatabaseRegistry}), the public face of one database ({@link
 * dev.lanes.internal.engine.DatabaseImpl}) with the routing of its reads, the guards of its file,
 * its idle release and eviction, its gauges and its profiles.
 *
 * <p>May depend on every other internal package; only the public API depends on it.
 */
package dev.lanes.internal.engine;
