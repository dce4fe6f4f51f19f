/**
 * Plain JDBC delegation, written once: for each JDBC type a body or the data source hands out
 * over one of the driver's objects, a class (or, for the statement types below {@link
 * java.sql.Statement}, an interface of default methods) that forwards every method to its
 * delegate, typed, without reflection. The body's guard ({@code internal.guard}) and the data
 * source's metadata ({@code internal.jdbc}) subclass them and override only what they intercept.
 * How both read a stored value as a JDBC date is {@link dev.lanes.internal.types.JdbcDates},
 * beside the value convention.
 *
 * <p>Depends on no other internal package; used by guard and jdbc.
 */
package dev.lanes.internal.guard.delegating;
