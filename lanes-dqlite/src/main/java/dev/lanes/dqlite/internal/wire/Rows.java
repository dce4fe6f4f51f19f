package dev.lanes.dqlite.internal.wire;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes ROWS responses.
 *
 * <p>A ROWS body is the column count (u64), one text per column name, then the rows, then an end
 * marker word: {@link Protocol#ROWS_DONE} after the last batch, {@link Protocol#ROWS_PART} when
 * the server sends another ROWS message (each batch repeats the count and the names). A row is a
 * header of one 4-bit type code per column (the first column in the low nibble), zero-padded to a
 * word boundary, then the values. No valid row header equals a marker (no type code is 14 or
 * 15), so the decoder tells them apart by peeking one word.
 */
public final class Rows {
    private Rows() {}

    /**
     * Decodes one batch, appending its rows to {@code rows} (each an {@link ArrayList}).
     * {@code columns} is filled from the first batch and checked against later ones.
     *
     * @return true when this was the last batch
     */
    public static boolean decodeBatch(ByteBuffer body, List<String> columns, List<List<Object>> rows) {
        BodyReader in = new BodyReader(body);
        long count = in.u64();
        if (count <= 0 || count > in.remaining()) {
            throw new MalformedResponseException("ROWS response with " + count + " columns");
        }
        int n = (int) count;
        if (columns.isEmpty()) {
            for (int i = 0; i < n; i++) {
                columns.add(in.text());
            }
        } else {
            if (n != columns.size()) {
                throw new MalformedResponseException(
                        "ROWS batch with " + n + " columns after a batch with " + columns.size());
            }
            for (int i = 0; i < n; i++) {
                String name = in.text();
                if (!name.equals(columns.get(i))) {
                    throw new MalformedResponseException("ROWS batch names column " + (i + 1) + " "
                            + name + " after a batch that named it " + columns.get(i));
                }
            }
        }
        while (true) {
            if (in.remaining() < Protocol.WORD) {
                throw new MalformedResponseException("ROWS response without an end marker");
            }
            long word = in.peekU64();
            if (word == Protocol.ROWS_DONE || word == Protocol.ROWS_PART) {
                in.u64();
                if (in.remaining() != 0) {
                    throw new MalformedResponseException(
                            in.remaining() + " bytes after the end marker of a ROWS response");
                }
                return word == Protocol.ROWS_DONE;
            }
            List<Object> row = new ArrayList<>(n);
            decodeRow(in, n, row);
            rows.add(row);
        }
    }

    /** Decodes one row of {@code n} values into {@code row}. */
    static void decodeRow(BodyReader in, int n, List<Object> row) {
        int headerBytes = MessageEncoder.padded((n + 1) / 2);
        if (in.remaining() < headerBytes) {
            throw new MalformedResponseException("row header of " + n + " columns cut short");
        }
        int headerStart = in.position();
        int[] types = new int[n];
        for (int i = 0; i < n; i += 2) {
            int slot = in.u8() & 0xff;
            types[i] = slot & 0x0f;
            if (i + 1 < n) {
                types[i + 1] = slot >>> 4;
            }
        }
        in.position(headerStart + headerBytes);
        for (int i = 0; i < n; i++) {
            row.add(value(in, types[i], i));
        }
    }

    private static Object value(BodyReader in, int type, int column) {
        return switch (type) {
            case Protocol.TYPE_INTEGER -> in.u64();
            case Protocol.TYPE_FLOAT -> in.float64();
            case Protocol.TYPE_TEXT -> in.text();
            case Protocol.TYPE_BLOB -> in.blob();
            case Protocol.TYPE_NULL -> {
                in.u64();
                yield null;
            }
            case Protocol.TYPE_UNIXTIME -> Instant.ofEpochSecond(in.u64());
            case Protocol.TYPE_ISO8601 -> Iso8601.parse(in.text());
            case Protocol.TYPE_BOOLEAN -> in.u64() != 0;
            default -> throw new MalformedResponseException(
                    "column " + (column + 1) + " has value type " + type + ", which dqlite does not define");
        };
    }
}
