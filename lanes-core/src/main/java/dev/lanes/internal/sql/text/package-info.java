/**
 * SQL as text, read before SQLite sees it: the one lexer ({@link
 * dev.lanes.internal.sql.text.SqlLexer}), the shape of a text found in one pass of it ({@link
 * dev.lanes.internal.sql.text.StatementShape}), the bounded cache of shapes per runtime ({@link
 * dev.lanes.internal.sql.text.Shapes}), the policy of each place a statement can run with its
 * rules and their one message each ({@link dev.lanes.internal.sql.text.StatementPolicy}, {@link
 * dev.lanes.internal.sql.text.Rule}), and the table of what each pragma may do ({@link
 * dev.lanes.internal.sql.text.PragmaTable}).
 *
 * <p>Depends on the public API (its exceptions, {@code WriteOutcome}) and on no other internal
 * package.
 */
package dev.lanes.internal.sql.text;
