/**
 * Values between Java and SQLite: how a Java argument is encoded as a bound parameter, how a
 * stored value is read as a Java type (with the one epoch rule for dates), and how a row becomes
 * a record or bean. {@link dev.lanes.internal.types.ValueConvention} names the rule set.
 *
 * <p>Depends on util only; used by the API, sql and jdbc.
 */
package dev.lanes.internal.types;
