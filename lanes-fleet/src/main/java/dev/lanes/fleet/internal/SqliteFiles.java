package dev.lanes.fleet.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Checks of the files a restore puts together, before SQLite reads them: a database image
 * (SQLite's header, whole pages) and a WAL image (SQLite's WAL format: its header and every
 * frame with the header's salts and a matching running checksum, the last frame a commit).
 * SQLite itself stops reading a WAL at the first frame that does not check out and serves what
 * came before; checked here first, a damaged or cut WAL fails the restore instead.
 *
 * <p>Thread-safety: stateless.
 */
final class SqliteFiles {
    private static final byte[] DB_MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int WAL_MAGIC = 0x377f0682;
    private static final int WAL_HEADER = 32;
    private static final int FRAME_HEADER = 24;

    private SqliteFiles() {}

    /**
     * The page size of a database image.
     *
     * @throws ReplicaCorruptException when it is not one
     */
    static int checkDatabase(byte[] db, String what) {
        if (db.length < 100 || !Arrays.equals(db, 0, DB_MAGIC.length, DB_MAGIC, 0,
                DB_MAGIC.length)) {
            throw new ReplicaCorruptException(what + " is not a SQLite database");
        }
        int pageSize = ((db[16] & 0xff) << 8) | (db[17] & 0xff);
        pageSize = pageSize == 1 ? 65536 : pageSize;
        if (pageSize < 512 || Integer.bitCount(pageSize) != 1 || db.length % pageSize != 0) {
            throw new ReplicaCorruptException(what + " does not hold whole pages of "
                    + pageSize + " bytes (" + db.length + " bytes)");
        }
        return pageSize;
    }

    /**
     * Checks a WAL image of a database whose pages are {@code pageSize} bytes.
     *
     * @return its frames
     * @throws ReplicaCorruptException when SQLite would not apply all of it
     */
    static int checkWal(byte[] wal, int pageSize, String what) {
        ByteBuffer b = ByteBuffer.wrap(wal).order(ByteOrder.BIG_ENDIAN);
        if (wal.length < WAL_HEADER || (b.getInt(0) & ~1) != WAL_MAGIC) {
            throw new ReplicaCorruptException(what + " is not a SQLite WAL");
        }
        boolean bigEndian = (b.getInt(0) & 1) == 1;
        if (b.getInt(8) != pageSize) {
            throw new ReplicaCorruptException(what + " has pages of " + b.getInt(8)
                    + " bytes, the database " + pageSize);
        }
        int frame = FRAME_HEADER + pageSize;
        if ((wal.length - WAL_HEADER) % frame != 0 || wal.length == WAL_HEADER) {
            throw new ReplicaCorruptException(what + " does not hold whole frames ("
                    + wal.length + " bytes)");
        }
        int[] sum = checksum(wal, 0, 24, new int[2], bigEndian);
        if (sum[0] != b.getInt(24) || sum[1] != b.getInt(28)) {
            throw new ReplicaCorruptException(what + ": its header fails its checksum");
        }
        int frames = (wal.length - WAL_HEADER) / frame;
        for (int i = 0; i < frames; i++) {
            int at = WAL_HEADER + i * frame;
            if (b.getInt(at + 8) != b.getInt(16) || b.getInt(at + 12) != b.getInt(20)) {
                throw new ReplicaCorruptException(what + ": frame " + i + " is of another WAL");
            }
            checksum(wal, at, 8, sum, bigEndian);
            checksum(wal, at + FRAME_HEADER, pageSize, sum, bigEndian);
            if (sum[0] != b.getInt(at + 16) || sum[1] != b.getInt(at + 20)) {
                throw new ReplicaCorruptException(what + ": frame " + i
                        + " fails its checksum");
            }
        }
        if (b.getInt(WAL_HEADER + (frames - 1) * frame + 4) == 0) {
            throw new ReplicaCorruptException(what + " ends inside a transaction");
        }
        return frames;
    }

    /** SQLite's WAL checksum of {@code length} bytes (a multiple of 8), continuing {@code s}. */
    private static int[] checksum(byte[] data, int offset, int length, int[] s,
            boolean bigEndian) {
        ByteBuffer b = ByteBuffer.wrap(data, offset, length)
                .order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int s1 = s[0];
        int s2 = s[1];
        for (int i = offset; i < offset + length; i += 8) {
            s1 += b.getInt(i) + s2;
            s2 += b.getInt(i + 4) + s1;
        }
        s[0] = s1;
        s[1] = s2;
        return s;
    }
}
