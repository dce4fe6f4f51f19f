/**
 * The public API of Lanes: the runtime ({@link dev.lanes.Lanes}), a database ({@link
 * dev.lanes.Database}) with its options, transactions, rows, diagnostics and the exception family
 * rooted at {@link dev.lanes.LanesException}. It is all a user touches; everything under {@code
 * dev.lanes.internal} is the implementation.
 *
 * <p>Depends on the JDK, sqlite-jdbc and, to build what it hands out, on {@code internal.engine} (the
 * runtime), {@code internal.sql} and {@code internal.types} (rows and their conversions).
 */
package dev.lanes;
