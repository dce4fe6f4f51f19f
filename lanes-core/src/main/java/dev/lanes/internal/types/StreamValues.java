package dev.lanes.internal.types;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * The value a JDBC stream setter binds ({@code setBinaryStream}, {@code setAsciiStream}, {@code
 * setCharacterStream}, {@code setClob} with a {@code Reader}…): the stream read whole, or up to
 * its length, and closed; then stored as any other value ({@link ValueConvention#store}), so that
 * text read from a stream is checked as a {@code String} argument is. The data source's
 * statements and a body's guarded statements read them here, the same way.
 */
public final class StreamValues {
    private StreamValues() {}

    /** At most {@code length} bytes of the stream, which is closed after; null for null. */
    public static byte[] bytes(InputStream in, long length) throws SQLException {
        if (in == null) {
            return null;
        }
        try (InputStream stream = in) {
            return length >= Integer.MAX_VALUE ? stream.readAllBytes()
                    : stream.readNBytes((int) Math.max(0, length));
        } catch (IOException e) {
            throw new SQLException("reading the parameter's stream failed", e);
        }
    }

    /** An ASCII (or Unicode) stream's bytes as the driver binds them: text, read as UTF-8. */
    public static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** At most {@code length} characters of the reader, which is closed after; null for null. */
    public static String chars(Reader in, long length) throws SQLException {
        if (in == null) {
            return null;
        }
        try (Reader reader = in) {
            StringBuilder b = new StringBuilder();
            char[] buffer = new char[8192];
            long left = Math.max(0, length);
            for (int n; left > 0
                    && (n = reader.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0; ) {
                b.append(buffer, 0, n);
                left -= n;
            }
            return b.toString();
        } catch (IOException e) {
            throw new SQLException("reading the parameter's reader failed", e);
        }
    }
}
