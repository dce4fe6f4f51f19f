package dev.lanes.dqlite.internal.wire;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Bytes written as hex in tests, with any spaces, underscores and line breaks ignored. */
public final class Hex {
    private Hex() {}

    public static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("[\\s_|]", ""));
    }

    /** The remaining bytes of a buffer as lower-case hex, 8 bytes per group. */
    public static String of(ByteBuffer buffer) {
        ByteBuffer view = buffer.duplicate();
        byte[] bytes = new byte[view.remaining()];
        view.get(bytes);
        return of(bytes);
    }

    public static String of(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < bytes.length; i++) {
            if (i > 0 && i % 8 == 0) {
                text.append(' ');
            }
            text.append(String.format("%02x", bytes[i]));
        }
        return text.toString();
    }

    /** Normalises expected hex to the grouping {@link #of} prints. */
    public static String norm(String hex) {
        return of(bytes(hex));
    }
}
