package dev.lanes.dqlite.internal.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of one message body, in order. Every field ends on a word boundary. A read
 * past the end, or text without its terminator, throws {@link MalformedResponseException}.
 */
public final class BodyReader {
    private final ByteBuffer body;

    /** Reads {@code body} from its position to its limit; the buffer's position advances. */
    public BodyReader(ByteBuffer body) {
        this.body = body.order(ByteOrder.LITTLE_ENDIAN);
    }

    public int remaining() {
        return body.remaining();
    }

    public int position() {
        return body.position();
    }

    public void position(int position) {
        body.position(position);
    }

    public long u64() {
        need(8, "a u64");
        return body.getLong();
    }

    /** The value of the next word without reading it; the caller has checked one is there. */
    long peekU64() {
        return body.getLong(body.position());
    }

    public int u32() {
        need(4, "a u32");
        return body.getInt();
    }

    public double float64() {
        return Double.longBitsToDouble(u64());
    }

    public String text() {
        int start = body.position();
        int end = start;
        int limit = body.limit();
        while (end < limit && body.get(end) != 0) {
            end++;
        }
        if (end == limit) {
            throw new MalformedResponseException(
                    "text field at offset " + start + " has no terminating zero byte");
        }
        String value;
        if (body.hasArray()) {
            value = new String(body.array(), body.arrayOffset() + start, end - start,
                    StandardCharsets.UTF_8);
        } else {
            byte[] bytes = new byte[end - start];
            body.get(start, bytes);
            value = new String(bytes, StandardCharsets.UTF_8);
        }
        int next = start + MessageEncoder.padded(end - start + 1);
        if (next > limit) {
            throw new MalformedResponseException(
                    "text field at offset " + start + " is not padded to a word boundary");
        }
        body.position(next);
        return value;
    }

    public byte[] blob() {
        long length = u64();
        if (length < 0 || length > body.remaining()) {
            throw new MalformedResponseException(
                    "blob of " + length + " bytes in a body with " + body.remaining() + " left");
        }
        byte[] value = new byte[(int) length];
        body.get(value);
        int pad = MessageEncoder.padded((int) length) - (int) length;
        need(pad, "blob padding");
        body.position(body.position() + pad);
        return value;
    }

    public byte u8() {
        need(1, "a byte");
        return body.get();
    }

    private void need(int bytes, String what) {
        if (body.remaining() < bytes) {
            throw new MalformedResponseException(
                    "body ends at offset " + body.position() + " where " + what + " was expected");
        }
    }
}
