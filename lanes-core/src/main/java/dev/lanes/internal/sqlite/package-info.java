/**
 * The driver below: its version and SQLite's, checked once ({@code SqliteLibrary}), its internals
 * behind one adapter ({@code DriverInternals}), how connections are opened, SQLite's result codes,
 * prepared control statements, the statement cache, SQLite's own defences on every connection
 * ({@code SqliteGuard}, a loadable extension built from {@code src/main/c}), and the fault points
 * tests inject into.
 *
 * <p>Depends on util, and on the pragma table ({@code sql.text.PragmaTable}), which seals {@code
 * SqliteGuard}.
 */
package dev.lanes.internal.sqlite;
