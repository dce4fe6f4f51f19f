package dev.lanes.dqlite.internal.wire;

import dev.lanes.dqlite.DqliteInvalidRequestException;
import dev.lanes.dqlite.UnixTime;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;

/**
 * Builds one request message (header and body) in a reusable buffer.
 *
 * <p>Not thread-safe: a connection owns one and uses it under its request lock. Every put leaves
 * the body on an 8-byte boundary, so the header's word count is exact. Input the server cannot
 * take as it is (text with a NUL character, too many parameters, a value of no dqlite type, a
 * message over the size limit) is refused with {@link DqliteInvalidRequestException} before
 * anything is sent.
 */
public final class MessageEncoder {
    private static final int DEFAULT_CAPACITY = 4096;

    private final long maxBodyBytes;
    private ByteBuffer buf;

    public MessageEncoder(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
        this.buf = ByteBuffer.allocate(DEFAULT_CAPACITY).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Starts a new message: forgets the previous one and reserves the header. */
    public MessageEncoder begin() {
        if (buf.capacity() > 4 * 1024 * 1024) {
            // a huge blob's buffer is not kept for the small requests that follow
            buf = ByteBuffer.allocate(DEFAULT_CAPACITY).order(ByteOrder.LITTLE_ENDIAN);
        }
        buf.clear();
        buf.position(Protocol.HEADER_BYTES);
        return this;
    }

    public MessageEncoder u64(long value) {
        ensure(8);
        buf.putLong(value);
        return this;
    }

    /** Two u32 fields, which together fill one word (the only way the protocol uses u32). */
    public MessageEncoder u32Pair(int first, int second) {
        ensure(8);
        buf.putInt(first);
        buf.putInt(second);
        return this;
    }

    /** A zero-terminated UTF-8 string padded with zeros to a word boundary. */
    public MessageEncoder text(String value, String what) {
        if (value.indexOf('\0') >= 0) {
            throw new DqliteInvalidRequestException(
                    what + " contains a NUL character at index " + value.indexOf('\0')
                            + "; dqlite sends text zero-terminated and would cut it there");
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        int padded = padded(bytes.length + 1);
        ensure(padded);
        buf.put(bytes);
        zeros(padded - bytes.length);
        return this;
    }

    private void blob(byte[] value) {
        int padded = padded(value.length);
        ensure(8L + padded);
        buf.putLong(value.length);
        buf.put(value);
        zeros(padded - value.length);
    }

    /**
     * The parameter tuple of a statement: a count byte, one type byte per value, zeros to a word
     * boundary, then the values. Nothing at all when there are no parameters (the server reads
     * an absent tuple as none).
     *
     * <p>Java types: {@code null}; {@link Long}, {@link Integer}, {@link Short}, {@link Byte}
     * (INTEGER); {@link Double}, {@link Float} (FLOAT); {@link String} (TEXT); {@code byte[]}
     * (BLOB); {@link Boolean} (BOOLEAN); {@link Instant}, {@link OffsetDateTime}, {@link
     * ZonedDateTime}, {@link LocalDateTime}, {@link LocalDate} (ISO8601 text); {@link UnixTime}
     * (UNIXTIME).
     */
    public MessageEncoder params(Object[] params) {
        if (params == null || params.length == 0) {
            return this;
        }
        if (params.length > Protocol.MAX_PARAMS) {
            throw new DqliteInvalidRequestException(
                    params.length + " parameters; dqlite takes at most " + Protocol.MAX_PARAMS
                            + " per statement");
        }
        int[] types = new int[params.length];
        for (int i = 0; i < params.length; i++) {
            types[i] = typeOf(params[i], i);
        }
        int header = padded(1 + params.length);
        ensure(header);
        buf.put((byte) params.length);
        for (int type : types) {
            buf.put((byte) type);
        }
        zeros(header - 1 - params.length);
        for (int i = 0; i < params.length; i++) {
            value(types[i], params[i], i);
        }
        return this;
    }

    private static int typeOf(Object value, int index) {
        if (value == null) {
            return Protocol.TYPE_NULL;
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte) {
            return Protocol.TYPE_INTEGER;
        } else if (value instanceof Double || value instanceof Float) {
            return Protocol.TYPE_FLOAT;
        } else if (value instanceof String) {
            return Protocol.TYPE_TEXT;
        } else if (value instanceof byte[]) {
            return Protocol.TYPE_BLOB;
        } else if (value instanceof Boolean) {
            return Protocol.TYPE_BOOLEAN;
        } else if (value instanceof UnixTime) {
            return Protocol.TYPE_UNIXTIME;
        } else if (Iso8601.canFormat(value)) {
            return Protocol.TYPE_ISO8601;
        }
        throw new DqliteInvalidRequestException(
                "parameter " + (index + 1) + " is a " + value.getClass().getName()
                        + ", which has no dqlite type; use null, Long, Integer, Short, Byte, Double,"
                        + " Float, String, byte[], Boolean, Instant, OffsetDateTime, ZonedDateTime,"
                        + " LocalDateTime, LocalDate or UnixTime");
    }

    private void value(int type, Object value, int index) {
        switch (type) {
            case Protocol.TYPE_NULL -> u64(0);
            case Protocol.TYPE_INTEGER -> u64(((Number) value).longValue());
            case Protocol.TYPE_FLOAT -> u64(Double.doubleToRawLongBits(((Number) value).doubleValue()));
            case Protocol.TYPE_TEXT -> text((String) value, "parameter " + (index + 1));
            case Protocol.TYPE_BLOB -> blob((byte[]) value);
            case Protocol.TYPE_BOOLEAN -> u64(((Boolean) value) ? 1 : 0);
            case Protocol.TYPE_UNIXTIME -> u64(((UnixTime) value).epochSeconds());
            case Protocol.TYPE_ISO8601 -> text(Iso8601.format(value), "parameter " + (index + 1));
            default -> throw new IllegalStateException("type " + type);
        }
    }

    /**
     * Writes the header and returns the whole message, ready to be written to a channel. The
     * buffer is the encoder's own: valid until the next {@link #begin()}.
     */
    public ByteBuffer finish(RequestType type) {
        int bodyBytes = buf.position() - Protocol.HEADER_BYTES;
        buf.putInt(0, bodyBytes / Protocol.WORD);
        buf.put(4, (byte) type.code());
        buf.put(5, (byte) 0); // schema 0
        buf.putShort(6, (short) 0);
        buf.flip();
        return buf;
    }

    private void ensure(long bytes) {
        long needed = (long) buf.position() + bytes;
        if (needed - Protocol.HEADER_BYTES > maxBodyBytes) {
            throw new DqliteInvalidRequestException(
                    "request of more than " + maxBodyBytes + " bytes; raise maxMessageBytes or send"
                            + " less in one statement");
        }
        if (needed > buf.capacity()) {
            long grown = Math.max(needed, (long) buf.capacity() * 2);
            ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(grown, Integer.MAX_VALUE - 16))
                    .order(ByteOrder.LITTLE_ENDIAN);
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
    }

    private void zeros(int count) {
        for (int i = 0; i < count; i++) {
            buf.put((byte) 0);
        }
    }

    /** Rounds a byte count up to a whole number of words. */
    static int padded(int bytes) {
        return (bytes + Protocol.WORD - 1) & -Protocol.WORD;
    }
}
