/**
 * The JDBC data source of a database ({@code db.dataSource()}): logical connections that turn
 * statements into requests on the lanes, detached result sets, metadata, and the mapping of
 * outcomes to standard SQL exceptions.
 *
 * <p>Depends on writer, reader, guard, sql, sqlite and util, and reaches its database through {@link
 * dev.lanes.internal.jdbc.JdbcBackend}, which the engine implements.
 */
package dev.lanes.internal.jdbc;
