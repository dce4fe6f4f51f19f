/**
 * The wiring of one runtime and its databases: the registry of open databases ({@link
 * dev.lanes.internal.engine.LanesRuntime}), the public face of one database ({@link
 * dev.lanes.internal.engine.DatabaseImpl}) with the guards of its file, its idle release and
 * eviction, and its profiles.
 *
 * <p>May depend on every other internal package; only the public API depends on it.
 */
package dev.lanes.internal.engine;
