/**
 * The driver below: how connections are opened, SQLite's result codes, prepared control
 * statements, the statement cache, and the fault points tests inject into.
 *
 * <p>Depends on util.
 */
package dev.lanes.internal.sqlite;
