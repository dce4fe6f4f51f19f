/**
 * The driver below: its version and SQLite's, checked once ({@code SqliteLibrary}), its internals
 * behind one adapter ({@code DriverInternals}), how connections are opened, SQLite's result codes,
 * prepared control statements, the statement cache, and the fault points tests inject into.
 *
 * <p>Depends on util.
 */
package dev.lanes.internal.sqlite;
