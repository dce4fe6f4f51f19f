/**
 * The JDBC data source of a database ({@code db.dataSource()}): logical connections that turn
 * statements into requests on the lanes, detached result sets, metadata, and the mapping of
 * outcomes to standard SQL exceptions.
 *
 * <p>A port: it depends on sql, sql.text, types, sqlite and guard.delegating (the JDBC delegation
 * its metadata extends, the date readings its result sets share with a body's), never on the
 * writer or the readers, and reaches its database through {@link
 * dev.lanes.internal.jdbc.JdbcBackend}, which the engine and the cluster implement; a read-write
 * transaction is a {@link dev.lanes.internal.sql.WriteTransaction}, a read-only one a {@link
 * dev.lanes.internal.sql.ReadTransaction}.
 */
package dev.lanes.internal.jdbc;
